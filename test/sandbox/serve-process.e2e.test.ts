// `bo sandbox serve` as a real process from the built bundle: prints its URL, answers
// requests, prints emails as they are sent, exits on SIGINT; refuses a remote host.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-bin.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

beforeAll(() => {
  ensureBuilt();
}, 120_000);

function serve(args: string[]) {
  const child = spawn(process.execPath, ['bin/bo.js', 'sandbox', 'serve', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (re: RegExp, stream: () => string) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timeout waiting for ${re}; stderr: ${stderr}`)), 20_000);
      const check = () => {
        const m = stream().match(re);
        if (m) {
          clearTimeout(timer);
          resolve(m);
        }
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      check();
    });
  return { child, exited, waitFor, out: () => stdout, err: () => stderr };
}

describe('bo sandbox serve (built binary)', () => {
  it('prints the URL, serves the API, shows emails with their codes, and stops on SIGINT', async () => {
    const p = serve(['--memory', '--port', '0']);
    const [, url] = await p.waitFor(/^(http:\/\/127\.0\.0\.1:\d+)\n/, p.out);
    await p.waitFor(/demo logins:/, p.err);
    expect(p.err()).toContain('plain@sandbox.example');
    // The banner's export line, pasted into a shell as it is, is all another bo needs.
    const exportLine = /^ {2}(export BO_BASE_URL=\S+ BO_API_KEY=sbx_key_\w+ BO_API_SECRET=sbx_secret_\w+)$/m.exec(p.err())?.[1];
    expect(exportLine, p.err()).toBeDefined();
    expect(exportLine).toContain(`BO_BASE_URL=${url} `);
    const home = mkdtempSync(join(tmpdir(), 'bo-serve-export-'));
    try {
      const pasted = execFileSync('bash', ['-c', `${exportLine}\nexec "$0" bin/bo.js --json lists list --limit 1`, process.execPath], {
        cwd: root,
        env: { PATH: env.PATH, HOME: home, BO_CONFIG_DIR: join(home, 'config'), BO_DATA_DIR: join(home, 'data') },
        encoding: 'utf8',
      });
      expect(JSON.parse(pasted)).toHaveLength(1);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }

    const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
    const { key, secret } = fixtures.apiKey;
    const lists = await fetch(`${url}/api/v1/email/lists`, { headers: { authorization: `bo ${key}:${secret}` } });
    expect(lists.status).toBe(200);

    const user = fixtures.users.find((u: { kind: string }) => u.kind === 'email');
    const login = await fetch(`${url}/api/v1/tokens`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: user.username, password: user.password }),
    });
    expect(login.status).toBe(202);
    const outbox = await (await fetch(`${url}/__sandbox/outbox`)).json();
    const code = outbox.at(-1).code;
    await p.waitFor(new RegExp(`email to ${user.username.replace('.', '\\.')}: .* code ${code}`), p.err);

    p.child.kill('SIGINT');
    expect(await p.exited).toBe(130);
    expect(p.err()).toContain('sandbox stopped');
    await expect(fetch(`${url}/api/v1/email/lists`)).rejects.toThrow();
  });

  it('refuses a non-loopback --host without --allow-remote (exit 2, one line naming the flag)', async () => {
    const p = serve(['--memory', '--host', '0.0.0.0']);
    expect(await p.exited).toBe(2);
    expect(p.err()).toMatch(/^error: --host 0\.0\.0\.0 is not a loopback address.*--allow-remote/);
    expect(p.out()).toBe('');
  });

  it.each([
    [['--port', 'http'], '--port'],
    [['--accounts', '5'], '--accounts'],
    [['--seed', '-1'], '--seed'],
    [['--memory', '--state', 'x.json'], '--state'],
    [['--state', 'x.json', '--accounts', '200000'], '--memory'],
  ])('refuses %j with exit 2 naming %s', async (args, flag) => {
    const p = serve(args);
    expect(await p.exited).toBe(2);
    expect(p.err().split('\n')[0]).toContain(flag);
  });
});

describe('bo sandbox serve --state', () => {
  it('keeps changes in the state file across runs, and --seed with other values starts over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bo-serve-state-'));
    const file = join(dir, 'state.json');
    const start = async (extra: string[] = []) => {
      const p = serve(['--state', file, '--port', '0', ...extra]);
      const [, url] = await p.waitFor(/^(http:\/\/127\.0\.0\.1:\d+)\n/, p.out);
      await p.waitFor(/demo logins:/, p.err);
      const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
      return { p, url: url!, auth: `bo ${fixtures.apiKey.key}:${fixtures.apiKey.secret}` };
    };
    const stop = async (p: ReturnType<typeof serve>) => {
      p.child.kill('SIGINT');
      expect(await p.exited).toBe(130);
    };
    try {
      const first = await start();
      expect(first.p.err()).toContain(`state: ${file}`);
      const created = await fetch(`${first.url}/api/v1/email/lists`, {
        method: 'POST', headers: { authorization: first.auth, 'content-type': 'application/json' }, body: JSON.stringify({ Name: 'Kept across runs' }),
      });
      const uid = ((await created.json()) as { Uid: string }).Uid;
      await stop(first.p);
      expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).records.EmailList)).toContain(uid);

      const second = await start();
      expect((await fetch(`${second.url}/__sandbox/records/EmailList/${uid}`)).status).toBe(200);
      await stop(second.p);

      const third = await start(['--seed', '2']);
      expect((await fetch(`${third.url}/__sandbox/records/EmailList/${uid}`)).status).toBe(404);
      await stop(third.p);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
