// `bo login` with a person at the terminal: scripted answers at each prompt, against the
// sandbox over HTTP. Each test checks what the person sees on stderr, that stdout stays
// empty, the exit code, and what was stored.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boLogin, lastEmailedCode, startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';
import { totpCode } from '../helpers/totp.js';

let sandbox: LoginSandbox;
beforeAll(async () => {
  sandbox = await startLoginSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

const tty = { stdinIsTTY: true, stderrIsTTY: false };

describe('bo login at a terminal', () => {
  it('signs in a user without two-factor with the password alone', async () => {
    const user = await sandbox.user('plain');
    const prompter = scriptedPrompter([
      { input: 'Email', answer: user.username },
      { password: 'Password', answer: user.password },
    ]);
    const r = await boLogin(sandbox, [], { ...tty, prompter });
    expect(r.stderr).toMatch(new RegExp(`Signed in as ${user.username} \\(127\\.0\\.0\\.1:\\d+\\) until \\d{4}-\\d\\d-\\d\\d`));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    prompter.assertDone();
    const saved = r.store.saved.get('default');
    expect(saved).toMatchObject({ kind: 'token', username: user.username });
    expect(saved?.kind === 'token' && saved.token.split('.')).toHaveLength(3);
  });

  it('asks for the authenticator code on a Totp challenge', async () => {
    const user = await sandbox.user('totp');
    const prompter = scriptedPrompter([
      { password: 'Password', answer: user.password },
      { input: 'Code from your authenticator app', answer: totpCode(user.totpSecret!, await sandbox.now()) },
    ]);
    const r = await boLogin(sandbox, ['--username', user.username], { ...tty, prompter });
    expect(r.stderr).toContain('open your authenticator app');
    expect(r.stderr).toContain('Signed in as totp@example.com');
    expect(r.code).toBe(0);
    prompter.assertDone();
  });
});
