// The two-factor login of `bo login` (SERVICE-API.md §5, D7–D12, COMMANDS.md "The
// two-factor flow") as a loop over explicit states:
//
//   password ──200──▶ done
//      │ 202 challenge            │ 202 enrollment demand
//      ▼                          ▼
//   challenge ◀─resend/switch   enroll ──begin──▶ enroll-confirm ──▶ done (+ recovery codes)
//      │ code / recovery ──▶ done
//      └─ lock (5 wrong, D8), 410, enrollment 401 ──▶ password (restart, password kept in memory)
//
// It knows the API only through TokensApi and the person only through Answers (flags,
// stdin, a Prompter, or none), so tests drive every path in-process.

import type { Challenge, EnrollmentDemand, TokenResponse, TokensApi } from '../api/tokens.js';
import type { Clock } from '../context.js';
import { AuthError, InterruptedError, RateLimitedError } from '../errors.js';
import type { Prompter } from './prompter-types.js';
import { Answers, describeMechanism, choicesHint, type ChallengeAction } from './login/answers.js';
import { isInvalidGrant, isRateLimited, retryAfterSeconds, statusOf, codeOf } from './login/api-errors.js';
import type { EnrollMethod, LoginOptions } from './login/options.js';
import type { Screen } from './login/screen.js';
import { keepRecoveryCodes, showTotpSetup } from './login/secrets-display.js';
import { tokenExpiry, usableToken, usableTotpSecret } from './login/server-answers.js';
import { symbols } from '../output/symbols.js';

export interface LoginDeps {
  api: TokensApi;
  /** null = non-interactive: every missing answer is an AuthError naming its flag. */
  prompter: Prompter | null;
  screen: Screen;
  clock: Clock;
  signal: AbortSignal;
  env: Record<string, string | undefined>;
  /** The next line of stdin (for --password-stdin, --recovery-code-stdin), null at its end. */
  readLine: () => Promise<string | null>;
  options: LoginOptions;
  /** `bo login` as this run's user types it (`bo --sandbox login`, `bo -p staging login`), for hints. */
  loginCommand?: string;
}

export interface LoginResult {
  /** Checked: fit for an Authorization header (server-answers.ts). */
  accessToken: string;
  /** The token's own expiry (its JWT `exp`, else `expires_in`), when known. */
  expiresAt: Date | undefined;
  username: string;
}

/** D8: a login attempt accepts at most 5 codes, across resends and switches. */
export const MAX_ATTEMPTS = 5;
/** Restarts (lock, expiry) before giving up, so a script can never loop forever. */
const MAX_RESTARTS = 3;
const MAX_PASSWORD_TRIES = 3;

/** "That code was not accepted", naming the flag it came from. */
function refusedCode(from: '--code' | '--code-command' | undefined): string {
  if (from === '--code-command') return 'The code --code-command printed was not accepted';
  if (from === '--code') return 'The code given with --code was not accepted';
  return 'That code was not accepted';
}

type State =
  | { at: 'password' }
  | { at: 'challenge'; challenge: Challenge; fresh: boolean }
  | { at: 'enroll'; enrollment: EnrollmentDemand }
  | { at: 'enroll-confirm'; enrollmentToken: string; method: EnrollMethod; challengeToken: string; secret: string | null }
  | { at: 'done'; token: TokenResponse; recoveryCodes: string[] };

export async function runLogin(deps: LoginDeps): Promise<LoginResult> {
  return new LoginFlow(deps).run();
}

class LoginFlow {
  private readonly answers: Answers;
  private username = '';
  /** Held in memory only, for restarts; never written anywhere. */
  private password = '';
  private attempts = 0;
  private restarts = 0;
  private passwordTries = 0;
  /** Authenticator secrets shown so far: a restart's new one voids the earlier QR code. */
  private totpSecretsShown = 0;

  constructor(private readonly d: LoginDeps) {
    this.answers = new Answers({
      options: d.options,
      prompter: d.prompter,
      screen: d.screen,
      readLine: d.readLine,
      env: d.env,
      signal: d.signal,
    });
  }

  async run(): Promise<LoginResult> {
    this.username = await this.answers.username();
    this.password = await this.answers.password();
    let state: State = { at: 'password' };
    for (;;) {
      if (this.d.signal.aborted) throw new InterruptedError();
      switch (state.at) {
        case 'password':
          state = await this.signIn();
          break;
        case 'challenge':
          state = await this.challenge(state.challenge, state.fresh);
          break;
        case 'enroll':
          state = await this.enroll(state.enrollment);
          break;
        case 'enroll-confirm':
          state = await this.confirmEnrollment(state);
          break;
        case 'done': {
          // The codes first: they are shown once, and 2FA is on whatever the token is.
          await keepRecoveryCodes(this.d.screen, state.recoveryCodes, this.d.options.recoveryCodesFile, symbols(this.d.env).box);
          const accessToken = usableToken(state.token.access_token);
          const expiresAt = tokenExpiry(accessToken, state.token.expires_in, this.d.clock.now());
          return { accessToken, expiresAt, username: this.username };
        }
      }
    }
  }

  private async signIn(): Promise<State> {
    this.attempts = 0;
    try {
      const answer = await this.d.api.signIn(this.username, this.password);
      if (answer.kind === 'token') return { at: 'done', token: answer.token, recoveryCodes: [] };
      if (answer.kind === 'challenge') return { at: 'challenge', challenge: answer.challenge, fresh: true };
      return { at: 'enroll', enrollment: answer.enrollment };
    } catch (err) {
      // D7: one message for a wrong username or password, no enumeration.
      if (statusOf(err) !== 400) throw err;
      this.passwordTries++;
      if (!this.answers.canRetryPassword || this.passwordTries >= MAX_PASSWORD_TRIES) {
        throw new AuthError('Wrong username or password.', { status: 400, code: codeOf(err) });
      }
      this.d.screen.say('Wrong username or password. Try again.');
      this.password = await this.answers.password();
      return { at: 'password' };
    }
  }

  private async challenge(ch: Challenge, fresh: boolean): Promise<State> {
    if (fresh) this.announce(ch);
    const action = await this.answers.challengeAction(ch, fresh);
    try {
      switch (action.kind) {
        case 'code':
          return { at: 'done', token: await this.d.api.verifyCode(ch.challenge_token, action.code), recoveryCodes: [] };
        case 'recovery':
          return { at: 'done', token: await this.d.api.useRecoveryCode(ch.challenge_token, action.code), recoveryCodes: [] };
        case 'resend': {
          const next = await this.d.api.resend(ch.challenge_token);
          this.d.screen.say(`A new code was sent to ${next.masked_destination ?? 'your email'}; the previous one no longer works.`);
          return { at: 'challenge', challenge: next, fresh: false };
        }
        case 'switch':
          return { at: 'challenge', challenge: await this.d.api.switchMechanism(ch.challenge_token, action.to), fresh: true };
      }
    } catch (err) {
      return this.challengeRefused(err, ch, action);
    }
  }

  /**
   * What the challenge wants, and where its code will come from: --code-command is named
   * when it answers, and an authenticator app only when a person may be there to open it.
   */
  private announce(ch: Challenge): void {
    const s = this.d.screen;
    const command = this.d.options.codeCommand ? ' Running --code-command for it.' : '';
    if (ch.mechanism === 'Email') s.say(`A sign-in code was emailed to ${ch.masked_destination ?? 'your email address'}.${command}`);
    else if (command) s.say(`Two-factor sign-in: a 6-digit authenticator code is needed.${command}`);
    else if (this.answers.interactive) s.say('Two-factor sign-in: open your authenticator app for the 6-digit code.');
    else s.say('Two-factor sign-in: a 6-digit authenticator code is needed.');
    if (this.answers.interactive && !command) s.say(choicesHint(ch));
  }

  private async challengeRefused(err: unknown, ch: Challenge, action: ChallengeAction): Promise<State> {
    const same: State = { at: 'challenge', challenge: ch, fresh: false };
    if (isRateLimited(err)) {
      await this.waitOut(err);
      return same;
    }
    if (statusOf(err) === 410) return this.restart('This sign-in expired (a challenge lasts 10 minutes).');
    if (statusOf(err) === 400 && codeOf(err) === 'not_supported') {
      this.d.screen.say(`The server cannot resend a code for ${describeMechanism(ch.mechanism)}.`);
      return same;
    }
    if ((action.kind === 'code' || action.kind === 'recovery') && isInvalidGrant(err)) {
      const what = action.kind === 'code' ? refusedCode(action.from) : 'That recovery code was not accepted (each works once)';
      return this.wrongCode(what, same, action.kind === 'code' ? action.from : undefined);
    }
    throw err;
  }

  /** D8: the client counts; the 5th wrong code locks the attempt and we start over. */
  private wrongCode(what: string, same: State, from?: '--code' | '--code-command'): State {
    this.attempts++;
    const left = MAX_ATTEMPTS - this.attempts;
    if (left <= 0) return this.restart(`${what}, and that was the last of ${MAX_ATTEMPTS} attempts: this sign-in is locked.`);
    const message = `${what}: ${left} attempt${left === 1 ? '' : 's'} left.`;
    if (!this.answers.interactive) {
      const hint =
        from === '--code-command'
          ? 'run the command yourself and check what it prints: a code made from an empty or wrong secret (an unset $TOTP_SECRET, say), or an old emailed code, is refused'
          : undefined;
      throw new AuthError(message, { code: 'invalid_grant', ...(hint ? { hint } : {}) });
    }
    this.d.screen.say(message);
    return same;
  }

  private restart(why: string): State {
    this.restarts++;
    if (this.restarts > MAX_RESTARTS) throw new AuthError(`${why} Gave up after ${MAX_RESTARTS} fresh starts.`);
    this.d.screen.say(`${why} Starting again with your password.`);
    return { at: 'password' };
  }

  /**
   * 429 (D10): a person at the prompt sees a countdown and tries again; a script gets
   * exit 5 and the wait, since sleeping a minute silently in CI helps nobody.
   */
  private async waitOut(err: unknown): Promise<void> {
    const seconds = retryAfterSeconds(err, this.d.clock.now());
    if (!this.answers.interactive) {
      throw new RateLimitedError(`Too many attempts: try again in ${seconds} s.`, { status: 429, retryAfter: seconds });
    }
    for (let left = seconds; left > 0; left--) {
      this.d.screen.status(`Too many attempts: you can try again in ${left} s${symbols(this.d.env).dots}`);
      await this.d.clock.sleep(1000, this.d.signal);
    }
    this.d.screen.status(null);
    this.d.screen.say('You can try again now.');
  }

  private async enroll(demand: EnrollmentDemand): Promise<State> {
    const o = this.d.options;
    this.d.screen.say('This account must set up two-factor sign-in before it can sign in.');
    const method = await this.answers.enrollMethod();
    // A script must be able to finish before anything changes on the server: the code
    // and the once-only recovery codes need somewhere to go.
    if (!this.answers.interactive && !o.codeCommand) {
      throw new AuthError(`Enrollment by ${method} needs a code. Pass --code-command <cmd>`, {
        hint: method === 'totp' ? 'the new secret is passed to the command in BO_TOTP_SECRET' : 'the command should print the emailed code',
      });
    }
    if (!this.d.screen.tty && !o.recoveryCodesFile) {
      throw new AuthError('Enrollment returns recovery codes that are shown only once. Pass --recovery-codes-file <file>');
    }
    const token = demand.challenge_token;
    try {
      if (method === 'totp') {
        const e = await this.d.api.beginTotp(token);
        // Before it is shown or reaches --code-command (BO_TOTP_SECRET).
        usableTotpSecret(e.secret);
        const again = this.totpSecretsShown++ > 0;
        if (again) {
          this.d.screen.say(
            'This is a new secret: the QR code and secret shown before no longer work. ' +
              'Remove that entry from your authenticator app and add this one.',
          );
        }
        await showTotpSetup(this.d.screen, e, o.qrPng, { replaceQrPng: again, loginCommand: this.d.loginCommand });
        return { at: 'enroll-confirm', enrollmentToken: token, method, challengeToken: e.challenge_token, secret: e.secret };
      }
      const e = await this.d.api.beginEmail(token);
      this.d.screen.say(`A code to confirm email sign-in was sent to ${e.masked_destination ?? 'your email address'}.`);
      return { at: 'enroll-confirm', enrollmentToken: token, method, challengeToken: e.challenge_token, secret: null };
    } catch (err) {
      return this.enrollmentRefused(err, null);
    }
  }

  private async confirmEnrollment(s: Extract<State, { at: 'enroll-confirm' }>): Promise<State> {
    const code = await this.answers.enrollCode(s.method, s.secret);
    try {
      const api = this.d.api;
      const r =
        s.method === 'totp'
          ? await api.confirmTotp(s.enrollmentToken, s.challengeToken, code)
          : await api.confirmEmail(s.enrollmentToken, s.challengeToken, code);
      this.d.screen.say(`Two-factor sign-in by ${s.method === 'totp' ? 'authenticator app' : 'email'} is now on.`);
      return { at: 'done', token: r, recoveryCodes: r.recovery_codes };
    } catch (err) {
      return this.enrollmentRefused(err, s);
    }
  }

  private async enrollmentRefused(err: unknown, s: State | null): Promise<State> {
    const status = statusOf(err);
    if (s && isRateLimited(err)) {
      await this.waitOut(err);
      return s;
    }
    if (status === 401) return this.restart('The enrollment session expired or was already used.');
    if (status === 410) return this.restart('This sign-in expired (a challenge lasts 10 minutes).');
    if (status === 403) {
      throw new AuthError('The server says two-factor enrollment does not apply to this user.', {
        status: 403,
        hint: `the account may already have a method set up: run \`${this.d.loginCommand ?? 'bo login'}\` again to be asked for a code`,
      });
    }
    if (s && isInvalidGrant(err)) {
      const from = this.d.options.codeCommand ? '--code-command' : undefined;
      return this.wrongCode(refusedCode(from), s, from);
    }
    throw err;
  }
}
