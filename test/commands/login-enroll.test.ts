// `bo login` for a user the account forces to set up two-factor sign-in: TOTP with the
// QR, the secret and the URI on screen, email, the recovery codes shown once and written
// 0600, and the refusals of enrollment (401 restart, 403, 429 countdown).

import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  boLogin,
  lastEmailedCode,
  masked,
  post,
  recoveryCodesOnScreen,
  sandboxClock,
  secretOnScreen,
  startLoginSandbox,
  type Live,
  type LoginSandbox,
} from '../auth/login-harness.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';
import { InterruptedError } from '../../src/errors.js';
import { totpCode } from '../helpers/totp.js';

let sandbox: LoginSandbox;
let dir: string;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
  dir = mkdtempSync(join(tmpdir(), 'bo-login-'));
});
afterEach(async () => {
  await sandbox?.close();
});

const terminal = { stdinIsTTY: true, stderrIsTTY: true };
const mode = (file: string) => statSync(file).mode & 0o777;

describe('bo login: forced enrollment', () => {
  it('sets up an authenticator: QR, secret in groups of four, URI, PNG, then recovery codes shown once and written 0600', async () => {
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const png = join(dir, 'qr.png');
    const codesFile = join(dir, 'codes.txt');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { select: 'How do you want to receive sign-in codes?', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username, '--qr-png', png, '--recovery-codes-file', codesFile], {
      ...terminal,
      prompter,
      live,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    prompter.assertDone();
    expect(r.stderr).toContain('This account must set up two-factor sign-in before it can sign in.');
    expect(r.stderr).toContain('Scan this QR code with your authenticator app:');
    // Explicit black-on-white cells (256-colour cube), never the terminal's defaults.
    expect(r.stderr).toContain('\u001b[38;5;16;48;5;231m\u2580');
    expect(r.stderr).toMatch(/Or enter this secret by hand: (?:[A-Z2-7]{4} )+[A-Z2-7]{1,4}\n/);
    expect(r.stderr).toMatch(/Setup URI: otpauth:\/\/totp\/[^\n]*secret=[A-Z2-7]+/);

    const shown = recoveryCodesOnScreen(r.stderr);
    const after = await sandbox.user('enroll');
    expect(after.totpSecret).toBe(secretOnScreen(r.stderr));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(after.recoveryCodes);
    expect(r.stderr).toContain('They will not be shown again.');
    expect(r.stderr).toContain(`Wrote ${shown.length} recovery codes to ${codesFile} (mode 0600).`);
    expect(readFileSync(codesFile, 'utf8')).toBe(`${shown.join('\n')}\n`);
    expect(mode(codesFile)).toBe(0o600);
    expect(readFileSync(png).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(mode(png)).toBe(0o600);
    expect(r.stderr).toContain(`Signed in as ${user.username}`);
    expect(r.store.saved.get('default')).toMatchObject({ kind: 'token', username: user.username });
  });

  it('sets up email sign-in with the emailed code', async () => {
    const user = await sandbox.user('enroll');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'email' },
      { input: 'Code from the email', answer: () => lastEmailedCode(sandbox, user.username) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...terminal, prompter });
    expect(r.stderr).toContain(`A code to confirm email sign-in was sent to ${masked(user.username)}.`);
    expect(r.stderr).toContain('Two-factor sign-in by email is now on.');
    expect(recoveryCodesOnScreen(r.stderr)).toEqual((await sandbox.user('enroll')).recoveryCodes);
    expect(r.code).toBe(0);
    prompter.assertDone();
  });

  it('restarts when the enrollment token expired (401) and enrolls with the new secret', async () => {
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'totp' },
      {
        input: 'Code from your authenticator app',
        answer: async () => {
          await sandbox.advance(601);
          return totpCode(secretOnScreen(live.stderr), await sandbox.now());
        },
      },
      { select: 'How do you want', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...terminal, prompter, live });
    expect(r.stderr).toContain('The enrollment session expired or was already used. Starting again with your password.');
    expect(r.stderr.match(/Scan this QR code/g)).toHaveLength(2);
    expect(r.code).toBe(0);
    prompter.assertDone();
  });

  it('explains a 403: enrollment no longer applies once the user has a method', async () => {
    const user = await sandbox.user('enroll');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'email' },
      {
        input: 'Code from the email',
        answer: async () => {
          const mine = await lastEmailedCode(sandbox, user.username);
          // Meanwhile another session of the same user completes its own enrollment.
          const demand = await post(sandbox, '/tokens', { username: user.username, password: user.password });
          const begin = await post(sandbox, '/tokens/two-factor/enroll/email/begin', { enrollment_token: demand.body.challenge_token });
          const done = await post(sandbox, '/tokens/two-factor/enroll/email/confirm', {
            enrollment_token: demand.body.challenge_token,
            challenge_token: begin.body.challenge_token,
            code: await lastEmailedCode(sandbox, user.username),
          });
          expect(done.status).toBe(200);
          return mine;
        },
      },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...terminal, prompter });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: the server says two-factor enrollment does not apply to this user.');
    expect(r.stderr).toContain('hint: the account may already have a method set up');
    expect(r.store.saved.size).toBe(0);
  });

  it('counts down a 429 on the terminal, then lets the person try again', async () => {
    for (let i = 0; i < 10; i++) {
      await post(sandbox, '/tokens/two-factor/enroll/totp/confirm', { enrollment_token: 'x', challenge_token: 'y', code: '000000' });
    }
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const clock = sandboxClock(sandbox);
    const code = async () => totpCode(secretOnScreen(live.stderr), await sandbox.now());
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: code },
      { input: 'Code from your authenticator app', answer: code },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...terminal, prompter, live, clock });
    // One line rewritten in place each second, from Retry-After down to 1.
    const ticks = [...r.stderr.matchAll(/\r\u001b\[2KToo many attempts: you can try again in (\d+) s…/g)].map((m) => Number(m[1]));
    expect(ticks.length).toBeGreaterThan(1);
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, i) => ticks[0]! - i));
    expect(ticks.at(-1)).toBe(1);
    expect(clock.slept).toEqual(ticks.map(() => 1000));
    expect(r.stderr).toContain('You can try again now.');
    expect(r.code).toBe(0);
    prompter.assertDone();
  });

  it('Ctrl-C during the countdown exits 130 and stores nothing', async () => {
    for (let i = 0; i < 10; i++) {
      await post(sandbox, '/tokens/two-factor/enroll/totp/confirm', { enrollment_token: 'x', challenge_token: 'y', code: '000000' });
    }
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const controller = new AbortController();
    const clock = {
      now: () => new Date(),
      sleep: async (_ms: number, signal?: AbortSignal) => {
        controller.abort();
        if (signal?.aborted) throw new InterruptedError();
      },
    };
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...terminal, prompter, live, clock, signal: controller.signal });
    expect(r.stderr).toContain('Too many attempts: you can try again in');
    expect(r.code).toBe(130);
    expect(r.store.saved.size).toBe(0);
    expect((await sandbox.user('enroll')).totpSecret).toBeNull();
  });
});
