// The built binary as a user runs it: the README's first command on a fresh data
// folder, exit codes set through the bin shim, pipes, and Ctrl-C.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';
import { binPath, runBin } from '../helpers/run-bin.js';

const fresh = () => {
  const cfg = tempConfig();
  return { ...cfg.env, BO_DATA_DIR: `${cfg.root}/data`, HOME: cfg.root };
};

describe('the bo binary', () => {
  it('prints seeded accounts with `bo --sandbox accounts list` on a fresh machine', async () => {
    const r = await runBin(['--sandbox', 'accounts', 'list'], { env: fresh() });
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row).toMatch(/^acc_\S+\t[^\t]+\t\d \w+\t/);
  });

  it('streams valid JSON through a pipe', async () => {
    const r = await runBin(['--sandbox', '--json', 'accounts', 'list', '--all'], { env: fresh() });
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as Array<{ Uid: string; _objectType: string }>;
    expect(items.length).toBeGreaterThan(10);
    expect(items.every((a) => typeof a.Uid === 'string')).toBe(true);
  });

  it('ends quietly with exit 0 when the reader of its output goes away (| head)', () => {
    const env = fresh();
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${binPath}" --sandbox --jsonl accounts list --all --page-size 1 | head -1; echo "status \${PIPESTATUS[0]}" >&2`], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    });
    expect(JSON.parse(r.stdout).Uid).toMatch(/^acc_/);
    expect(r.stderr).toBe('status 0\n');
  });

  it('sets the documented exit codes', async () => {
    const env = fresh();
    expect((await runBin(['--version'], { env })).code).toBe(0);
    expect((await runBin(['nope'], { env })).code).toBe(2);
    const missing = await runBin(['--sandbox', 'accounts', 'get', 'acc_missing'], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')[0]).toBe('error: no account with Uid acc_missing');
    const unsigned = await runBin(['--base-url', 'http://127.0.0.1:9', 'accounts', 'list'], { env: { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' } });
    expect(unsigned.code).toBe(4);
    // The profile stored nothing, so the missing keychain is not even asked.
    expect(unsigned.stderr).toBe(
      'error: not signed in (profile "default")\nhint: run bo login or bo auth set-key, or set BO_TOKEN, or BO_API_KEY and BO_API_SECRET\n',
    );
    const refused = await runBin(['--base-url', 'http://127.0.0.1:9', '--max-retries', '0', 'accounts', 'list'], { env: { ...env, BO_TOKEN: 'x.y.z' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: could not connect to http:\/\/127\.0\.0\.1:9/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports an unknown option first, before a required option that is missing (exit 2, nothing run)', async () => {
    const env = fresh();
    const r = await runBin(['--sandbox', 'accounts', 'extend-trial', 'acc_1', '--days', '14'], { env });
    expect(r.stderr).toBe("error: unknown option '--days'\n");
    expect(r.code).toBe(2);
    // With the required option given, the unknown one still comes before the argument count.
    const extra = await runBin(['--sandbox', 'accounts', 'extend-trial', 'acc_1', 'acc_2', '--to', '2027-01-31', '--dayz', '3'], { env });
    expect(extra.stderr).toBe("error: unknown option '--dayz'\n");
    expect(extra.code).toBe(2);
    // Asking for help still shows the help.
    const help = await runBin(['accounts', 'extend-trial', '--days', '14', '--help'], { env });
    expect(help.stdout).toMatch(/^Usage: bo accounts extend-trial /);
    expect(help.code).toBe(0);
  });

  it('exits 130 on Ctrl-C during a request, with one line on stderr', async () => {
    const fault = await startFaultServer();
    try {
      fault.script(reply.hang());
      const r = await runBin(['accounts', 'list'], {
        env: { ...fresh(), BO_BASE_URL: fault.url, BO_TOKEN: 'x.y.z' },
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (fault.requests.length > 0) {
              clearInterval(poll);
              child.kill('SIGINT');
            }
          }, 20);
        },
      });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('error: interrupted\n');
    } finally {
      await fault.close();
    }
  });
});
