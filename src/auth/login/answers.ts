// Where each answer of the login flow comes from: a flag or stdin first, then the
// person at the prompt, and without a prompt (--no-input, no TTY) an AuthError that
// names the flag to pass (COMMANDS.md "Non-interactive").

import type { Challenge, Mechanism } from '../../api/tokens.js';
import { AuthError } from '../../errors.js';
import type { Prompter } from '../prompter-types.js';
import { runCodeCommand } from './code-command.js';
import type { EnrollMethod, LoginOptions } from './options.js';
import type { Screen } from './screen.js';

/** What the person (or the flags) chose to do at a challenge. */
export type ChallengeAction =
  /** `from`: the flag the code came from, for a refusal to name it; absent when typed. */
  | { kind: 'code'; code: string; from?: '--code' | '--code-command' }
  | { kind: 'resend' }
  | { kind: 'switch'; to: Mechanism }
  | { kind: 'recovery'; code: string };

export interface AnswerSources {
  options: LoginOptions;
  prompter: Prompter | null;
  screen: Screen;
  /** The next line of stdin, or null at its end. */
  readLine: () => Promise<string | null>;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

export function otherMechanism(m: Mechanism): Mechanism {
  return m === 'Email' ? 'Totp' : 'Email';
}

export function describeMechanism(m: Mechanism): string {
  return m === 'Email' ? 'email' : 'the authenticator app';
}

/** Six digits, forgiving the spaces and dashes people copy from apps and emails. */
export function normalizeCode(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

interface Choices {
  resend: boolean;
  switchTo: Mechanism | null;
  recovery: boolean;
}

export function choicesOf(ch: Challenge): Choices {
  const other = otherMechanism(ch.mechanism);
  return {
    resend: ch.mechanism === 'Email',
    switchTo: ch.available_mechanisms.includes(other) ? other : null,
    recovery: ch.recovery_codes_available,
  };
}

/** The one-line hint under a code prompt, naming only what this challenge allows. */
export function choicesHint(ch: Challenge): string {
  const c = choicesOf(ch);
  const parts: string[] = [];
  if (c.resend) parts.push('r to resend the email');
  if (c.switchTo) parts.push(`s to use ${describeMechanism(c.switchTo)} instead`);
  if (c.recovery) parts.push('c to use a recovery code');
  return parts.length === 0 ? 'Type the 6-digit code.' : `Type the 6-digit code, or ${parts.join(', ')}.`;
}

/** Reads what was typed at the code prompt; null when it is neither a code nor an allowed word. */
export function parseCodeAnswer(text: string, ch: Challenge): ChallengeAction | null {
  const code = normalizeCode(text);
  if (code) return { kind: 'code', code };
  const word = text.trim().toLowerCase();
  const c = choicesOf(ch);
  if (c.resend && (word === 'r' || word === 'resend')) return { kind: 'resend' };
  if (c.switchTo && (word === 's' || word === 'switch')) return { kind: 'switch', to: c.switchTo };
  if (c.recovery && (word === 'c' || word === 'recovery')) return { kind: 'recovery', code: '' };
  return null;
}

/**
 * The enrollment choices. Each name starts with the word a person types for it (t or
 * totp, e or email: the prompt picks by a name's first letters), and they are numbered.
 */
export const ENROLL_CHOICES: Array<{ name: string; value: EnrollMethod; description: string }> = [
  { name: 'TOTP: an authenticator app (recommended)', value: 'totp', description: 'codes from an app such as Google Authenticator, 1Password or Aegis' },
  { name: 'Email: a code sent to your address', value: 'email', description: 'a new code is emailed at each sign-in' },
];

export class Answers {
  private codeUsed = false;
  /** Switches made for --mechanism or --code; bounded, should a server not switch. */
  private autoSwitches = 0;
  private recoveryLine: string | null | undefined;

  constructor(private readonly s: AnswerSources) {}

  get interactive(): boolean {
    return this.s.prompter !== null;
  }

  async username(): Promise<string> {
    if (this.s.options.username) return this.s.options.username;
    const p = this.need('--username <email>', 'Who is signing in?');
    return (await p.input('Email', { validate: (v) => (v.trim() ? true : 'Type the email you sign in with') })).trim();
  }

  async password(): Promise<string> {
    if (this.s.options.passwordStdin) {
      const line = await this.s.readLine();
      if (!line) throw new AuthError('--password-stdin: stdin held no password (the first line is read)');
      return line;
    }
    const p = this.need('--password-stdin', 'A password is needed.', 'pipe the password on stdin; it is never a flag');
    return p.password('Password', { validate: (v) => (v ? true : 'Type your password') });
  }

  /** True when the password can be asked again after a wrong one. */
  get canRetryPassword(): boolean {
    return this.interactive && !this.s.options.passwordStdin;
  }

  async challengeAction(ch: Challenge, fresh: boolean): Promise<ChallengeAction> {
    const o = this.s.options;
    // Flags first: a wanted mechanism, then a recovery code, then a code source.
    if (fresh && o.mechanism && ch.mechanism !== o.mechanism && this.autoSwitches < 3) {
      if (!ch.available_mechanisms.includes(o.mechanism)) {
        throw new AuthError(`--mechanism ${o.mechanism.toLowerCase()}: this account has no ${o.mechanism} method`, {
          hint: `available: ${ch.available_mechanisms.join(', ')}`,
        });
      }
      this.autoSwitches++;
      return { kind: 'switch', to: o.mechanism };
    }
    if (o.recoveryCodeStdin) {
      if (!ch.recovery_codes_available) throw new AuthError('--recovery-code-stdin: this account has no recovery codes left');
      this.recoveryLine ??= await this.s.readLine();
      if (!this.recoveryLine?.trim()) throw new AuthError('--recovery-code-stdin: stdin held no recovery code');
      return { kind: 'recovery', code: this.recoveryLine.trim() };
    }
    if (o.codeCommand) return { kind: 'code', code: await this.commandCode({}), from: '--code-command' };
    if (o.code && !this.codeUsed) {
      if (ch.mechanism === 'Totp') {
        this.codeUsed = true;
        return { kind: 'code', code: o.code, from: '--code' };
      }
      // --code answers an authenticator challenge: move there when the account has one.
      if (!o.mechanism && ch.available_mechanisms.includes('Totp') && this.autoSwitches < 3) {
        this.autoSwitches++;
        return { kind: 'switch', to: 'Totp' };
      }
    }
    if (!this.s.prompter) throw this.missingCode(ch);
    return this.promptAction(this.s.prompter, ch);
  }

  private async promptAction(p: Prompter, ch: Challenge): Promise<ChallengeAction> {
    const message = ch.mechanism === 'Email' ? 'Code from the email' : 'Code from your authenticator app';
    const answer = await p.input(message, {
      validate: (v) => (parseCodeAnswer(v, ch) ? true : choicesHint(ch)),
      checkedLater: true,
    });
    const action = parseCodeAnswer(answer, ch)!;
    if (action.kind !== 'recovery') return action;
    const code = await p.password('Recovery code', { validate: (v) => (v.trim() ? true : 'Type one of your recovery codes') });
    return { kind: 'recovery', code: code.trim() };
  }

  async enrollMethod(): Promise<EnrollMethod> {
    if (this.s.options.enroll) return this.s.options.enroll;
    const p = this.need('--enroll totp|email', 'This account must set up two-factor sign-in first.');
    return p.select<EnrollMethod>('How do you want to receive sign-in codes?', ENROLL_CHOICES);
  }

  async enrollCode(method: EnrollMethod, secret: string | null): Promise<string> {
    if (this.s.options.codeCommand) {
      return this.commandCode(secret ? { BO_TOTP_SECRET: secret } : {});
    }
    const what = method === 'totp' ? 'the code your authenticator app shows' : 'the code from the email';
    const p = this.need('--code-command <cmd>', `Enrollment needs ${what}.`,
      method === 'totp' ? 'the new secret is passed to the command in BO_TOTP_SECRET' : undefined);
    const answer = await p.input(method === 'totp' ? 'Code from your authenticator app' : 'Code from the email', {
      validate: (v) => (normalizeCode(v) ? true : 'Type the 6-digit code'),
      checkedLater: true,
    });
    return normalizeCode(answer)!;
  }

  private commandCode(extra: Record<string, string>): Promise<string> {
    return runCodeCommand(this.s.options.codeCommand!, {
      env: { ...this.s.env, ...extra },
      stderr: this.s.screen.raw,
      signal: this.s.signal,
      timeoutMs: this.s.options.codeCommandTimeoutMs,
    });
  }

  private need(flag: string, why: string, hint?: string): Prompter {
    if (this.s.prompter) return this.s.prompter;
    throw new AuthError(`${why} Pass ${flag} (no prompts without a terminal or with --no-input)`, hint ? { hint } : {});
  }

  private missingCode(ch: Challenge): AuthError {
    if (ch.mechanism === 'Email') {
      const to = ch.masked_destination ?? 'your email';
      const note = this.s.options.code ? ' (--code answers an authenticator challenge only)' : '';
      return new AuthError(`A code was emailed to ${to}${note}. Pass --code-command <cmd> that prints it`, {
        hint: ch.recovery_codes_available ? 'or --recovery-code-stdin with a recovery code on stdin' : undefined,
      });
    }
    return new AuthError('A code from the authenticator app is needed. Pass --code <6 digits> or --code-command <cmd>', {
      hint: ch.recovery_codes_available ? 'or --recovery-code-stdin with a recovery code on stdin' : undefined,
    });
  }
}
