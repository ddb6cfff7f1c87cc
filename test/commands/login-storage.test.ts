// Where `bo login` keeps the token: --insecure-storage writes the 0600 file of the
// config folder (and marks the profile), and `bo auth status` then shows who is signed
// in from there. The keychain path is covered end to end in test/e2e/login-tmux.test.ts.

import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boLogin, startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBo } from '../helpers/run-bo.js';

let sandbox: LoginSandbox;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
});
afterEach(async () => {
  await sandbox?.close();
});

describe('bo login --insecure-storage', () => {
  it('writes the token to the 0600 credentials file, and bo auth status shows it', async () => {
    const cfg = tempConfig();
    const user = await sandbox.user('plain');
    const r = await boLogin(sandbox, ['-p', 'acme', '--insecure-storage', '--username', user.username, '--password-stdin'], {
      env: cfg.env,
      stdin: `${user.password}\n`,
    });
    expect(r.stderr).toContain(`Signed in as ${user.username}`);
    expect(r.code).toBe(0);
    // The injected memory store was not used: the file was.
    expect(r.store.saved.size).toBe(0);
    expect(cfg.mode(cfg.credentialsFile)).toBe(0o600);
    const file = cfg.readJson(cfg.credentialsFile);
    expect(JSON.stringify(file)).toContain(`"username":"${user.username}"`);

    const status = await runBo(['-p', 'acme', '--json', 'auth', 'status'], { env: cfg.env });
    expect(status.code).toBe(0);
    const shown = JSON.parse(status.stdout);
    expect(shown).toMatchObject({ profile: 'acme', kind: 'token', source: 'file', username: user.username });
    expect(shown.personUid).toEqual(expect.any(String));
  });

  it('stores nothing when the sign-in fails', async () => {
    const cfg = tempConfig();
    const r = await boLogin(sandbox, ['--insecure-storage', '--username', (await sandbox.user('plain')).username, '--password-stdin'], {
      env: cfg.env,
      stdin: 'wrong\n',
    });
    expect(r.code).toBe(4);
    expect(existsSync(cfg.credentialsFile)).toBe(false);
    const status = await runBo(['auth', 'status'], { env: cfg.env });
    expect(status.code).toBe(4);
  });

  it('without a keychain, refuses before anything is asked or sent, naming --insecure-storage (exit 4)', async () => {
    const cfg = tempConfig();
    const user = await sandbox.user('email');
    // No D-Bus session in this environment: the Secret Service cannot be reached.
    const r = await boLogin(sandbox, ['--username', user.username, '--password-stdin'], {
      env: { ...cfg.env, BO_KEYCHAIN_TIMEOUT: '5' },
      stdin: `${user.password}\n`,
      realStore: true,
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the OS keychain is not available');
    expect(r.stderr).toContain('--insecure-storage');
    expect(await sandbox.outbox()).toEqual([]);
  });
});
