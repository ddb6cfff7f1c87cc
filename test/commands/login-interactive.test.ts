// `bo login` with a person at the terminal: scripted answers at each prompt, against a
// fresh sandbox over HTTP. Each test checks what the person sees on stderr, that stdout
// stays empty, the exit code, and what was stored.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boLogin, lastEmailedCode, masked, startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';
import { totpCode } from '../helpers/totp.js';

let sandbox: LoginSandbox;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
});
afterEach(async () => {
  await sandbox?.close();
});

const tty = { stdinIsTTY: true, stderrIsTTY: false };
const signedIn = (username: string) => new RegExp(`Signed in as ${username.replace(/[.+]/g, '\\$&')} \\(127\\.0\\.0\\.1:\\d+\\) until \\d{4}-\\d\\d-\\d\\d\\.`);

/** A six-digit code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('bo login at a terminal', () => {
  it('signs in a user without two-factor with the password alone', async () => {
    const user = await sandbox.user('plain');
    const prompter = scriptedPrompter([
      { input: 'Email', answer: user.username },
      { password: 'Password', answer: user.password },
    ]);
    const r = await boLogin(sandbox, [], { ...tty, prompter });
    expect(r.stderr).toMatch(signedIn(user.username));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    prompter.assertDone();
    const saved = r.store.saved.get('default');
    expect(saved).toMatchObject({ kind: 'token', username: user.username });
    expect(saved?.kind === 'token' && saved.token.split('.')).toHaveLength(3);
    expect(saved?.kind === 'token' && Date.parse(saved.expiresAt!) - Date.now()).toBeGreaterThan(364 * 86400_000);
  });

  it('asks again after a wrong password and stores under the chosen profile', async () => {
    const user = await sandbox.user('plain');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: 'not-the-password' },
      { password: 'Password', answer: user.password },
    ]);
    const r = await boLogin(sandbox, ['-p', 'acme', '--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain('Wrong username or password. Try again.');
    expect(r.code).toBe(0);
    expect(r.store.saved.get('acme')).toMatchObject({ kind: 'token', username: user.username });
    expect(r.store.saved.has('default')).toBe(false);
  });

  it('asks for the authenticator code on a Totp challenge and lists only its choices', async () => {
    const user = await sandbox.user('totp');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: async () => totpCode(user.totpSecret!, await sandbox.now()) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain('open your authenticator app');
    // A Totp-only user: no resend, no switch; recovery codes are there.
    expect(r.stderr).toContain('Type the 6-digit code, or c to use a recovery code.');
    expect(r.stderr).toMatch(signedIn(user.username));
    expect(r.code).toBe(0);
    prompter.assertDone();
  });

  it('says where an Email code went and takes it', async () => {
    const user = await sandbox.user('email');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from the email', answer: () => lastEmailedCode(sandbox, user.username) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain(`A sign-in code was emailed to ${masked(user.username)}.`);
    expect(r.stderr).toContain('r to resend the email');
    expect(r.stderr).toMatch(signedIn(user.username));
    expect(r.code).toBe(0);
  });

  it('resends the email: the old code stops working and counts as an attempt, the new one signs in', async () => {
    const user = await sandbox.user('email');
    let first = '';
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from the email', answer: async () => ((first = await lastEmailedCode(sandbox, user.username)), 'r') },
      { input: 'Code from the email', answer: () => first },
      { input: 'Code from the email', answer: () => lastEmailedCode(sandbox, user.username) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain(`A new code was sent to ${masked(user.username)}; the previous one no longer works.`);
    expect(r.stderr).toContain('That code was not accepted: 4 attempts left.');
    expect(r.code).toBe(0);
    expect((await sandbox.outbox()).filter((m) => m.to === user.username)).toHaveLength(2);
    prompter.assertDone();
  });

  it('switches from the authenticator to email when both are enrolled', async () => {
    const user = await sandbox.user('both');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: 's' },
      { input: 'Code from the email', answer: () => lastEmailedCode(sandbox, user.username) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain('s to use email instead');
    expect(r.stderr).toContain(`A sign-in code was emailed to ${masked(user.username)}.`);
    expect(r.stderr).toContain('s to use the authenticator app instead');
    expect(r.code).toBe(0);
    prompter.assertDone();
  });

  it('signs in with a recovery code, which then works no more', async () => {
    const user = await sandbox.user('totp');
    const recovery = user.recoveryCodes[0]!;
    const once = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: 'c' },
      { password: 'Recovery code', answer: recovery },
    ]);
    const r1 = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter: once });
    expect(r1.code).toBe(0);
    expect(r1.stderr).toMatch(signedIn(user.username));
    expect((await sandbox.user('totp')).recoveryCodes).not.toContain(recovery);

    const again = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: 'recovery' },
      { password: 'Recovery code', answer: recovery },
      { input: 'Code from your authenticator app', answer: async () => totpCode(user.totpSecret!, await sandbox.now()) },
    ]);
    const r2 = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter: again });
    expect(r2.stderr).toContain('That recovery code was not accepted (each works once): 4 attempts left.');
    expect(r2.code).toBe(0);
    again.assertDone();
  });

  it('counts wrong codes down, restarts at the password when locked, without asking for it again', async () => {
    const user = await sandbox.user('totp');
    const code = async () => totpCode(user.totpSecret!, await sandbox.now());
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      ...Array.from({ length: 5 }, () => ({ input: 'Code from your authenticator app', answer: async () => wrong(await code()) })),
      { input: 'Code from your authenticator app', answer: code },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain('That code was not accepted: 4 attempts left.');
    expect(r.stderr).toContain('That code was not accepted: 1 attempt left.');
    expect(r.stderr).toContain('the last of 5 attempts: this sign-in is locked. Starting again with your password.');
    expect(r.stderr.match(/open your authenticator app/g)).toHaveLength(2);
    expect(r.code).toBe(0);
    prompter.assertDone();
  });

  it('restarts when the challenge expired (410) and signs in with the new emailed code', async () => {
    const user = await sandbox.user('email');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      {
        input: 'Code from the email',
        answer: async () => {
          const code = await lastEmailedCode(sandbox, user.username);
          await sandbox.advance(601);
          return code;
        },
      },
      { input: 'Code from the email', answer: () => lastEmailedCode(sandbox, user.username) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain('This sign-in expired (a challenge lasts 10 minutes). Starting again with your password.');
    expect(r.code).toBe(0);
    expect((await sandbox.outbox()).filter((m) => m.to === user.username)).toHaveLength(2);
    prompter.assertDone();
  });

  it('rejects a malformed answer at the code prompt before sending it', async () => {
    const user = await sandbox.user('totp');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: 'r' },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    // The terminal prompt would refuse "r" (no resend for Totp) and show the hint.
    expect(r.stderr).toContain('the prompt refused "r": Type the 6-digit code, or c to use a recovery code.');
    expect(r.store.saved.size).toBe(0);
  });

  it('Ctrl-C at the code prompt exits 130 and stores nothing', async () => {
    const user = await sandbox.user('totp');
    const prompter = scriptedPrompter([{ password: 'Password', answer: user.password }, { interrupt: 'input' }]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('error: interrupted');
    expect(r.store.saved.size).toBe(0);
  });

  it('Ctrl-C at the password prompt exits 130 and stores nothing', async () => {
    const prompter = scriptedPrompter([{ input: 'Email', answer: (await sandbox.user('plain')).username }, { interrupt: 'password' }]);
    const r = await boLogin(sandbox, [], { ...tty, prompter });
    expect(r.code).toBe(130);
    expect(r.store.saved.size).toBe(0);
  });
});
