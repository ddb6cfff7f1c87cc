// `bo login` run by a script: no TTY on stdin, so no prompts. Every answer comes from a
// flag or stdin, and each missing one ends the run with exit 4 and the flag to pass;
// malformed flags are exit 2 before anything is sent. Secrets stay off stdout and stderr.

import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boLogin, masked, post, startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';
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

/** A --code-command that prints the newest code the sandbox emailed. */
const mailbox = () =>
  `node -e "fetch('${sandbox.url}/__sandbox/outbox').then(r=>r.json()).then(m=>console.log('code: '+m.at(-1).code))"`;

async function script(kind: 'plain' | 'totp' | 'email' | 'both' | 'enroll', args: string[], extraStdin = '') {
  const user = await sandbox.user(kind);
  const r = await boLogin(sandbox, ['--username', user.username, '--password-stdin', ...args], {
    stdin: `${user.password}\n${extraStdin}`,
  });
  return { ...r, user };
}

describe('bo login from a script', () => {
  it('signs in with --password-stdin and says so on stderr only', async () => {
    const r = await script('plain', []);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const [signedIn, saved, ...rest] = r.stderr.split('\n');
    expect(signedIn).toMatch(/^Signed in as \S+ \(127\.0\.0\.1:\d+\) until \d{4}-\d\d-\d\d\.$/);
    // --base-url named a tenant the profile did not have: it is kept for next time.
    expect(saved).toBe(`Saved ${sandbox.url} as the base URL of profile "default".`);
    expect(rest).toEqual(['']);
    expect(r.stderr).toContain(`Signed in as ${r.user.username} (`);
    expect(r.store.saved.get('default')).toMatchObject({ kind: 'token', username: r.user.username });
  });

  it.each([
    [['--code', '12345'], '--code must be exactly 6 digits'],
    [['--code', 'abcdef'], '--code must be exactly 6 digits'],
    [['--mechanism', 'sms'], "option '--mechanism <kind>' argument 'sms' is invalid"],
    [['--enroll', 'sms'], "option '--enroll <kind>' argument 'sms' is invalid"],
    [['--code', '123456', '--code-command', 'true'], '--code and --code-command cannot be used together'],
    [['--password', 'hunter2'], "unknown option '--password'"],
  ])('refuses %j with exit 2 before sending anything', async (args, message) => {
    const user = await sandbox.user('email');
    const r = await boLogin(sandbox, ['--username', user.username, '--password-stdin', ...args], { stdin: `${user.password}\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    // The email user's sign-in would have sent a code: nothing was sent.
    expect(await sandbox.outbox()).toEqual([]);
  });

  it('refuses to overwrite an existing --recovery-codes-file (exit 2)', async () => {
    const file = join(dir, 'codes.txt');
    writeFileSync(file, 'old codes\n');
    const r = await script('email', ['--recovery-codes-file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--recovery-codes-file: ${file} already exists`);
    expect(readFileSync(file, 'utf8')).toBe('old codes\n');
    expect(await sandbox.outbox()).toEqual([]);
  });

  it('names --username when it is missing (exit 4)', async () => {
    const r = await boLogin(sandbox, ['--password-stdin'], { stdin: 'x\n' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Pass --username <email>');
  });

  it('names --password-stdin when no password can be read (exit 4)', async () => {
    const { username } = await sandbox.user('plain');
    const r1 = await boLogin(sandbox, ['--username', username]);
    expect(r1.code).toBe(4);
    expect(r1.stderr).toContain('Pass --password-stdin');
    const r2 = await boLogin(sandbox, ['--username', username, '--password-stdin'], { stdin: '' });
    expect(r2.code).toBe(4);
    expect(r2.stderr).toContain('--password-stdin: stdin held no password');
  });

  it('a wrong password is exit 4 with the one message for user and password (D7)', async () => {
    const r = await boLogin(sandbox, ['--username', (await sandbox.user('plain')).username, '--password-stdin'], { stdin: 'wrong\n' });
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('error: wrong username or password.\n');
    expect(r.store.saved.size).toBe(0);
  });

  it('answers a Totp challenge with --code; a wrong one is exit 4 with the attempts left', async () => {
    const user = await sandbox.user('totp');
    const bad = await script('totp', ['--code', String((Number(totpCode(user.totpSecret!, await sandbox.now())) + 1) % 1e6).padStart(6, '0')]);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('error: the code given with --code was not accepted: 4 attempts left.');
    expect(bad.store.saved.size).toBe(0);
    const good = await script('totp', ['--code', totpCode(user.totpSecret!, await sandbox.now())]);
    expect(good.code).toBe(0);
  });

  it('names --code and --code-command when a Totp code is missing', async () => {
    const r = await script('totp', []);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Pass --code <6 digits> or --code-command <cmd>');
    expect(r.stderr).toContain('hint: or --recovery-code-stdin');
  });

  it('names --code-command and where the email went when an Email code is missing', async () => {
    const r = await script('email', []);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`error: a code was emailed to ${masked(r.user.username)}. Pass --code-command <cmd> that prints it`);
  });

  it('runs --code-command for an emailed code and takes the first 6-digit number it prints', async () => {
    const r = await script('email', ['--code-command', mailbox()]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Signed in as ${r.user.username}`);
  });

  it('starts again with the password from stdin when the challenge expired while the command ran (410)', async () => {
    const marker = join(dir, 'first-run-done');
    // The first run takes "11 minutes" (the sandbox clock moves), the second is quick.
    const slowOnce = `test -e '${marker}' || { touch '${marker}'; node -e "fetch('${sandbox.url}/__sandbox/clock',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({advanceSeconds:660})})"; }; ${mailbox()}`;
    const r = await script('email', ['--code-command', slowOnce]);
    expect(r.stderr).toContain('This sign-in expired (a challenge lasts 10 minutes). Starting again with your password.');
    expect(r.code).toBe(0);
    expect((await sandbox.outbox()).filter((m) => m.to === r.user.username)).toHaveLength(2);
  });

  it('switches to email with --mechanism email', async () => {
    const r = await script('both', ['--mechanism', 'email', '--code-command', mailbox()]);
    expect(r.code).toBe(0);
    expect((await sandbox.outbox()).map((m) => m.to)).toEqual([r.user.username]);
  });

  it('refuses --mechanism for a method the account lacks (exit 4)', async () => {
    const r = await script('email', ['--mechanism', 'totp', '--code', '123456']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('--mechanism totp: this account has no Totp method');
  });

  it('reports a failing --code-command with its own stderr (exit 4)', async () => {
    const r = await script('email', ['--code-command', 'echo mailbox unreachable >&2; exit 3']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('mailbox unreachable');
    expect(r.stderr).toContain('error: --code-command exited with status 3');
    const r2 = await script('email', ['--code-command', 'echo no code here']);
    expect(r2.code).toBe(4);
    expect(r2.stderr).toContain('error: --code-command printed no 6-digit code');
  });

  it('uses a recovery code from the next stdin line, once only', async () => {
    const user = await sandbox.user('totp');
    const code = user.recoveryCodes[1]!;
    const r1 = await script('totp', ['--recovery-code-stdin'], `${code}\n`);
    expect(r1.code).toBe(0);
    const r2 = await script('totp', ['--recovery-code-stdin'], `${code}\n`);
    expect(r2.code).toBe(4);
    expect(r2.stderr).toContain('that recovery code was not accepted (each works once): 4 attempts left.');
  });

  it('says --code cannot answer an emailed code when the account has no authenticator', async () => {
    const r = await script('email', ['--code', '123456']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('(--code answers an authenticator challenge only). Pass --code-command <cmd>');
  });

  it('names --recovery-code-stdin when stdin has no second line', async () => {
    const r = await script('totp', ['--recovery-code-stdin']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: --recovery-code-stdin: stdin held no recovery code');
  });

  it('enrolls email sign-in from a script, reading the code through --code-command', async () => {
    const file = join(dir, 'codes.txt');
    const r = await script('enroll', ['--enroll', 'email', '--code-command', mailbox(), '--recovery-codes-file', file]);
    expect(r.stderr).toContain('Two-factor sign-in by email is now on.');
    expect(r.code).toBe(0);
    const after = await sandbox.user('enroll');
    expect(readFileSync(file, 'utf8')).toBe(`${after.recoveryCodes.join('\n')}\n`);
    for (const code of after.recoveryCodes) expect(r.stderr).not.toContain(code);
  });

  it('names --enroll, then --code-command, then --recovery-codes-file, changing nothing', async () => {
    const r1 = await script('enroll', []);
    expect(r1.code).toBe(4);
    expect(r1.stderr).toContain('Pass --enroll totp|email');
    const r2 = await script('enroll', ['--enroll', 'totp']);
    expect(r2.code).toBe(4);
    expect(r2.stderr).toContain('Pass --code-command <cmd>');
    expect(r2.stderr).toContain('BO_TOTP_SECRET');
    const r3 = await script('enroll', ['--enroll', 'totp', '--code-command', 'oathtool --totp -b "$BO_TOTP_SECRET"']);
    expect(r3.code).toBe(4);
    expect(r3.stderr).toContain('Pass --recovery-codes-file <file>');
    expect((await sandbox.user('enroll')).totpSecret).toBeNull();
  });

  it('enrolls a CI account with oathtool reading BO_TOTP_SECRET; no secret reaches stderr', async () => {
    const file = join(dir, 'codes.txt');
    const keep = join(dir, 'secret.txt');
    const r = await script('enroll', [
      '--enroll', 'totp',
      '--code-command', `printf %s "$BO_TOTP_SECRET" > '${keep}'; oathtool --totp -b "$BO_TOTP_SECRET"`,
      '--recovery-codes-file', file,
    ]);
    expect(r.stderr).toContain(`Signed in as ${r.user.username}`);
    expect(r.code).toBe(0);
    const after = await sandbox.user('enroll');
    expect(readFileSync(keep, 'utf8')).toBe(after.totpSecret);
    expect(readFileSync(file, 'utf8')).toBe(`${after.recoveryCodes.join('\n')}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    for (const secret of [after.totpSecret!, ...after.recoveryCodes, r.user.password]) expect(r.stderr).not.toContain(secret);
    expect(r.stdout).toBe('');
  });

  it('exits 5 with the wait on a 429, since a script cannot watch a countdown', async () => {
    for (let i = 0; i < 10; i++) {
      await post(sandbox, '/tokens/two-factor/enroll/totp/confirm', { enrollment_token: 'x', challenge_token: 'y', code: '000000' });
    }
    const r = await script('enroll', [
      '--enroll', 'totp', '--code-command', 'oathtool --totp -b "$BO_TOTP_SECRET"', '--recovery-codes-file', join(dir, 'c.txt'),
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/error: too many attempts: try again in \d+ s\./);
  });

  it('keeps the password, codes and token out of the --verbose trace', async () => {
    const user = await sandbox.user('totp');
    const code = totpCode(user.totpSecret!, await sandbox.now());
    const r = await script('totp', ['--verbose', '--code', code]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('POST http://127.0.0.1');
    const saved = r.store.saved.get('default');
    const token = saved?.kind === 'token' ? saved.token : 'missing';
    for (const secret of [user.password, code, token]) expect(r.stderr).not.toContain(secret);
  });
});
