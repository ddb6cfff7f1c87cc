// A FIFO, a folder, a socket or a device where bo keeps a file (config.json, the
// --insecure-storage credentials file, the sandbox state file) is an error naming the
// path, exit 1, on its own: a FIFO used to block the synchronous read, so bo hung
// through Ctrl-C. On the built binary, as a real process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);
/** Generous: a hang is killed after this and shows as signal SIGKILL, never as a pass. */
const LIMIT = { timeoutMs: 20_000 };
const HINT = 'hint: move it away: bo keeps a plain file at that path\n';

function notRegular(r: { code: number | null; signal: string | null; stderr: string; stdout: string }, what: string, path: string, kind: string) {
  expect(r.signal, r.stderr).toBeNull();
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toBe(`error: ${what} ${path} is not a regular file (${kind})\n${HINT}`);
  expect(r.stdout).toBe('');
}

function listenOn(path: string): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(path, () => resolve(server));
  });
}

describe('a config, credentials or state path that is not a regular file', { timeout: 120_000 }, () => {
  it('a FIFO at the config path: bo config list exits 1 on its own, naming the path', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    mkfifo(t.configFile);
    notRegular(await runBin(['config', 'list'], { env: t.env, ...LIMIT }), 'the config file', t.configFile, 'a FIFO');
  });

  it('a folder, a socket or a device at the config path: exit 1 naming what is there', async () => {
    const t = tempConfig();
    mkdirSync(t.configFile, { recursive: true });
    notRegular(await runBin(['config', 'list'], { env: t.env, ...LIMIT }), 'the config file', t.configFile, 'a folder');
    const u = tempConfig();
    mkdirSync(u.dir, { recursive: true });
    const server = await listenOn(u.configFile);
    try {
      notRegular(await runBin(['config', 'list'], { env: u.env, ...LIMIT }), 'the config file', u.configFile, 'a socket');
    } finally {
      server.close();
    }
    const v = tempConfig();
    mkdirSync(v.dir, { recursive: true });
    symlinkSync('/dev/zero', v.configFile);
    notRegular(await runBin(['config', 'set', 'timeout', '40'], { env: v.env, ...LIMIT }), 'the config file', v.configFile, 'a device');
  });

  it('a symbolic link to a regular file is still read', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(join(t.root, 'real.json'), '{"profiles":{"default":{"timeout":45}}}');
    symlinkSync(join(t.root, 'real.json'), t.configFile);
    const r = await runBin(['config', 'get', 'timeout'], { env: t.env, ...LIMIT });
    expect(r.stderr).toBe('');
    expect([r.code, r.stdout]).toEqual([0, '45\n']);
  });

  it('a FIFO or a folder at the --insecure-storage credentials file: exit 1 naming the path, for reads and writes', async () => {
    for (const make of [mkfifo, (p: string) => mkdirSync(p)]) {
      const t = tempConfig();
      mkdirSync(t.dir, { recursive: true });
      writeFileSync(t.configFile, '{"profiles":{"default":{"base-url":"https://127.0.0.1:1","credential-store":"file"}}}');
      make(t.credentialsFile);
      const kind = make === mkfifo ? 'a FIFO' : 'a folder';
      notRegular(await runBin(['auth', 'status'], { env: t.env, ...LIMIT }), 'the credentials file', t.credentialsFile, kind);
      const set = await runBin(['auth', 'set-key', '--insecure-storage', '--key', 'k', '--secret-stdin'], { env: t.env, stdin: 'secret\n', ...LIMIT });
      expect(set.signal).toBeNull();
      expect(set.code).toBe(1);
      expect(set.stderr).toContain(`error: the credentials file ${t.credentialsFile} is not a regular file (${kind})\n`);
    }
  });

  it('a FIFO at the sandbox state file: bo --sandbox and bo sandbox serve exit 1 on their own', async () => {
    const t = tempConfig();
    const state = join(t.root, 'sandbox-state.json');
    mkfifo(state);
    const embedded = await runBin(['--sandbox', 'accounts', 'list'], { env: { ...t.env, BO_DATA_DIR: t.root }, ...LIMIT });
    expect(embedded.signal).toBeNull();
    expect(embedded.code).toBe(1);
    expect(embedded.stderr).toContain(`the sandbox state file ${state} is not a regular file (a FIFO)`);
    const served = await runBin(['sandbox', 'serve', '--state', state, '--port', '0'], { env: t.env, ...LIMIT });
    expect(served.signal).toBeNull();
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(`the sandbox state file ${state} is not a regular file (a FIFO)`);
  });
});
