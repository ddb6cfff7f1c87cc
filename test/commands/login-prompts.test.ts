// The login prompts' words and marks, through the whole flow against the sandbox: a
// locked enrollment that starts over says its new secret voids the QR code shown
// before (and --qr-png is replaced), and every code prompt is asked as one the server
// judges later, so it is not shown as accepted when typed.
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/auth/prompter-types.js';
import { boLogin, secretOnScreen, startLoginSandbox, type Live, type LoginSandbox } from '../auth/login-harness.js';
import { scriptedPrompter, type Step } from '../helpers/scripted-prompter.js';
import { totpCode } from '../helpers/totp.js';

let sandbox: LoginSandbox;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
});
afterEach(async () => {
  await sandbox?.close();
});

const terminal = { stdinIsTTY: true, stderrIsTTY: true };
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** A scripted prompter that also records how each text question was asked. */
function recording(steps: Step[]) {
  const inner = scriptedPrompter(steps);
  const asked: Array<{ message: string; checkedLater: boolean }> = [];
  const prompter: Prompter = {
    ...inner,
    input: (message, options) => {
      asked.push({ message, checkedLater: options?.checkedLater === true });
      return inner.input(message, options);
    },
  };
  return { prompter, asked, assertDone: () => inner.assertDone() };
}

describe('bo login: a locked enrollment starts over', () => {
  it('says the new secret voids the QR code shown before, replaces --qr-png, and enrolls with the new secret', async () => {
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const png = join(mkdtempSync(join(tmpdir(), 'bo-login-')), 'qr.png');
    let firstSecret = '';
    let firstPng = '';
    const wrongCode = async () => {
      firstSecret ||= secretOnScreen(live.stderr);
      firstPng ||= readFileSync(png, 'base64');
      return wrong(totpCode(firstSecret, await sandbox.now()));
    };
    const steps: Step[] = [
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'totp' },
      ...Array.from({ length: 5 }, () => ({ input: 'Code from your authenticator app', answer: wrongCode })),
      { select: 'How do you want', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
    ];
    const { prompter, assertDone } = recording(steps);
    const r = await boLogin(sandbox, ['--username', user.username, '--qr-png', png, '--recovery-codes-file', `${png}.codes`], {
      ...terminal,
      prompter,
      live,
    });
    expect(r.code).toBe(0);
    assertDone();
    expect(r.stderr).toContain('this sign-in is locked. Starting again with your password.');
    const [before, after] = r.stderr.split('This is a new secret: the QR code and secret shown before no longer work.');
    expect(after, 'the warning is shown').toBeDefined();
    // The warning comes before the second QR code, and the secret did change.
    expect(before!.match(/Scan this QR code/g)).toHaveLength(1);
    expect(after!.match(/Scan this QR code/g)).toHaveLength(1);
    const secondSecret = secretOnScreen(r.stderr);
    expect(secondSecret).not.toBe(firstSecret);
    expect((await sandbox.user('enroll')).totpSecret).toBe(secondSecret);
    // The PNG file holds the new QR code, still 0600.
    expect(existsSync(png)).toBe(true);
    expect(readFileSync(png, 'base64')).not.toBe(firstPng);
    expect(statSync(png).mode & 0o777).toBe(0o600);
  });

  it('says nothing of the kind on a first enrollment', async () => {
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const { prompter } = recording([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'bo-login-'));
    const r = await boLogin(sandbox, ['--username', user.username, '--recovery-codes-file', join(dir, 'codes')], { ...terminal, prompter, live });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('new secret');
  });
});

describe('bo login: code prompts are not marked as accepted when typed', () => {
  it('asks every code as judged later, and the email as final', async () => {
    const user = await sandbox.user('totp');
    const { prompter, asked, assertDone } = recording([
      { input: 'Email', answer: user.username },
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: async () => wrong(totpCode(user.totpSecret!, await sandbox.now())) },
      { input: 'Code from your authenticator app', answer: async () => totpCode(user.totpSecret!, await sandbox.now()) },
    ]);
    const r = await boLogin(sandbox, [], { stdinIsTTY: true, stderrIsTTY: false, prompter });
    expect(r.code).toBe(0);
    assertDone();
    expect(r.stderr).toContain('That code was not accepted: 4 attempts left.');
    expect(asked).toEqual([
      { message: 'Email', checkedLater: false },
      { message: 'Code from your authenticator app', checkedLater: true },
      { message: 'Code from your authenticator app', checkedLater: true },
    ]);
  });

  it('asks the enrollment code as judged later too', async () => {
    const user = await sandbox.user('enroll');
    const live: Live = { stderr: '' };
    const { prompter, asked } = recording([
      { password: 'Password', answer: user.password },
      { select: 'How do you want', answer: 'totp' },
      { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'bo-login-'));
    const r = await boLogin(sandbox, ['--username', user.username, '--recovery-codes-file', join(dir, 'codes')], { ...terminal, prompter, live });
    expect(r.code).toBe(0);
    expect(asked).toEqual([{ message: 'Code from your authenticator app', checkedLater: true }]);
  });
});
