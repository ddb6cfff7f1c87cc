// The recovery-code box of `bo login` under the locale: ASCII corners and rules under
// LANG=C, box drawing under UTF-8, the same codes inside either way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boLogin, lastEmailedCode, startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';

let sandbox: LoginSandbox;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
});
afterEach(async () => {
  await sandbox?.close();
});

async function enrollByEmail(locale: Record<string, string>) {
  const user = await sandbox.user('enroll');
  const prompter = scriptedPrompter([
    { password: 'Password', answer: user.password },
    { select: 'How do you want', answer: 'email' },
    { input: 'Code from the email', answer: () => lastEmailedCode(sandbox, user.username) },
  ]);
  const r = await boLogin(sandbox, ['--username', user.username], { stdinIsTTY: true, stderrIsTTY: true, prompter, env: locale });
  expect(r.code).toBe(0);
  prompter.assertDone();
  const codes = (await sandbox.user('enroll')).recoveryCodes;
  expect(codes.length).toBeGreaterThan(0);
  const lines = r.stderr.split('\n');
  const box = lines.slice(lines.findIndex((l) => l.includes('Recovery codes: save these now.')) - 1);
  return { box, codes };
}

describe('the recovery-code box under the locale', () => {
  it('LANG=C: + - | only', async () => {
    const { box, codes } = await enrollByEmail({ LANG: 'C' });
    expect(box[0]).toMatch(/^\+-+\+$/);
    expect(box[1]).toMatch(/^\| Recovery codes: save these now\. +\|$/);
    for (const code of codes) expect(box.some((l) => l === `|   ${code}${l.slice(4 + code.length)}`)).toBe(true);
    expect(box.filter((l) => /^\| {3}\S+ +\|$/.test(l))).toHaveLength(codes.length);
    expect(box.join('\n')).not.toMatch(/[─│┌┐└┘]/);
  });

  it('UTF-8: box drawing', async () => {
    const { box } = await enrollByEmail({ LANG: 'en_US.UTF-8' });
    expect(box[0]).toMatch(/^┌─+┐$/);
    expect(box[1]).toMatch(/^│ Recovery codes: save these now\. +│$/);
  });
});
