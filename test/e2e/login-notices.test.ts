// What `bo login` says without a terminal, on the built binary against
// `bo sandbox serve`: a --code-command login names the flag, never an authenticator app
// nobody is there to open, and a code the server refuses is said to be the command's (it
// used one of the 5 attempts, D8); an enrollment without a terminal points to --qr-png
// for the QR code; --insecure-storage says where the unencrypted token went.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';
import { startE2eSandbox, type E2eSandbox } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');
let sandbox: E2eSandbox;

beforeAll(async () => {
  sandbox = await startE2eSandbox(root);
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

function login(args: string[], password: string, env: Record<string, string> = {}) {
  const t = tempConfig();
  const run = runBin(['--base-url', sandbox.url, 'login', '--insecure-storage', ...args, '--password-stdin'], {
    env: { ...t.env, ...env },
    stdin: `${password}\n`,
    timeoutMs: 60_000,
  });
  return { t, run };
}

describe('bo login --code-command in a CI log', () => {
  it('names --code-command instead of an authenticator app, and signs in', async () => {
    const user = await sandbox.user('totp');
    const { t, run } = login(['--username', user.username, '--code-command', 'oathtool --totp -b "$TOTP_SECRET"'], user.password, {
      TOTP_SECRET: user.totpSecret!,
    });
    const r = await run;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Two-factor sign-in: a 6-digit authenticator code is needed. Running --code-command for it.\n');
    expect(r.stderr).not.toMatch(/authenticator app|Type the 6-digit code/);
    expect(r.stderr).toContain(`The token is stored unencrypted in ${t.credentialsFile} (a file only you can read, mode 0600), not in the OS keychain.\n`);
  });

  it('a refused code (an empty $TOTP_SECRET) is said to be the command\'s: exit 4, with what to check', async () => {
    const user = await sandbox.user('totp');
    const { t, run } = login(['--username', user.username, '--code-command', 'oathtool --totp -b "$TOTP_SECRET" 2>/dev/null || echo 000000'], user.password, {
      TOTP_SECRET: '',
    });
    const r = await run;
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(
      'Two-factor sign-in: a 6-digit authenticator code is needed. Running --code-command for it.\n' +
        'error: the code --code-command printed was not accepted: 4 attempts left.\n' +
        'hint: run the command yourself and check what it prints: a code made from an empty or wrong secret (an unset $TOTP_SECRET, say), or an old emailed code, is refused\n',
    );
    expect(existsSync(t.credentialsFile)).toBe(false);
  });

  it('an emailed code names the command too', async () => {
    const user = await sandbox.user('email');
    const { run } = login(['--username', user.username, '--code-command', 'echo 000000'], user.password);
    const r = await run;
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^A sign-in code was emailed to \S+\. Running --code-command for it\.\n/);
    expect(r.stderr).toContain('error: the code --code-command printed was not accepted: 4 attempts left.\n');
  });
});

describe('authenticator enrollment without a terminal', () => {
  it('draws no QR code and offers --qr-png, without the secret in the log', async () => {
    const user = await sandbox.user('enroll');
    const t = tempConfig();
    const r = await runBin(
      ['--base-url', sandbox.url, 'login', '--insecure-storage', '--username', user.username, '--password-stdin', '--enroll', 'totp',
        '--code-command', 'oathtool --totp -b "$BO_TOTP_SECRET"', '--recovery-codes-file', join(t.root, 'codes.txt')],
      { env: t.env, stdin: `${user.password}\n`, timeoutMs: 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('No QR code without a terminal: run bo login with --qr-png <file> to get it as an image.\n');
    expect(r.stderr).not.toContain('\u2580');
    const secret = (await sandbox.user('enroll')).totpSecret!;
    expect(r.stderr).not.toContain(secret);
  });
});
