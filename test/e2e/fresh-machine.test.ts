// The built binary where a CI job or a service account runs it: credential variables
// set to an empty value (a CI job whose secrets are not available), and a HOME that does
// not exist (HOME=/nonexistent). An empty variable counts as not set, so half a key pair
// is an auth failure (exit 4, code auth) naming the missing variable, as the pre-flight
// check `bo auth status --verify` promises, with nothing sent. bo never creates a missing
// home folder: not its config or data folder (the error names BO_CONFIG_DIR or
// BO_DATA_DIR), not its compile-cache folder. Node 20 has no compile cache, so a preload
// gives the shim the one of Node >= 22.8, which creates its folder as Node's does.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';

let fault: FaultServer | undefined;
afterEach(async () => {
  await fault?.close();
  fault = undefined;
});

/** A fault server answering every request with an empty list; only the API key gets through. */
async function listServer(): Promise<FaultServer> {
  const server = await startFaultServer();
  server.fallback((req, res, body) =>
    req.headers.authorization === 'bo k:s' ? reply.json(200, { items: [] })(req, res, body) : reply.json(401, { error: 'unauthorized' })(req, res, body),
  );
  return server;
}

describe('credential variables set to an empty value', () => {
  it('an API key with an empty BO_API_SECRET is exit 4, code auth, naming BO_API_SECRET; nothing is sent', async () => {
    fault = await listServer();
    const env = { ...tempConfig().env, BO_BASE_URL: fault.url, BO_API_KEY: 'k', BO_API_SECRET: '' };
    const text = await runBin(['accounts', 'list'], { env });
    expect(text.stderr).toBe('error: BO_API_KEY is set but BO_API_SECRET is not (or is empty): set both, or neither\n');
    expect(text.code).toBe(4);
    const json = await runBin(['accounts', 'list', '--json'], { env: { ...env, BO_API_KEY: '', BO_API_SECRET: 's' } });
    // The error line, then the same as JSON.
    expect(JSON.parse(json.stderr.trimEnd().split('\n').at(-1)!)).toEqual({
      error: { status: null, code: 'auth', message: 'BO_API_SECRET is set but BO_API_KEY is not (or is empty): set both, or neither' },
    });
    expect(json.code).toBe(4);
    expect(fault.requests).toHaveLength(0);
  });

  it('an empty or blank BO_TOKEN counts as not set: the API key is used', async () => {
    fault = await listServer();
    for (const token of ['', ' ']) {
      const r = await runBin(['accounts', 'list', '--json'], { env: { ...tempConfig().env, BO_BASE_URL: fault.url, BO_TOKEN: token, BO_API_KEY: 'k', BO_API_SECRET: 's' } });
      expect(r.stdout).toBe('[]\n');
      expect(r.code).toBe(0);
    }
    expect(fault.requests.map((q) => q.headers.authorization)).toEqual(['bo k:s', 'bo k:s']);
  });
});

describe('a home folder that does not exist', () => {
  /** HOME names a folder that is not there; NODE_OPTIONS preloads the compile cache of Node >= 22.8. */
  function missingHome() {
    const { root } = tempConfig();
    const preload = join(root, 'compile-cache.cjs');
    // As Node's: a folder it is given is resolved (a value that is not a path throws) and created; none, its own default.
    writeFileSync(
      preload,
      "require('node:module').enableCompileCache = (dir) => dir === undefined || require('node:fs').mkdirSync(require('node:path').resolve(dir), { recursive: true });\n",
    );
    const home = join(root, 'nonexistent');
    return { root, home, env: { HOME: home, XDG_CONFIG_HOME: undefined, XDG_DATA_HOME: undefined, XDG_CACHE_HOME: undefined, NODE_OPTIONS: `--require ${preload}` } };
  }

  it('the compile cache: none under a missing home folder, which stays missing; in ~/.cache/bo once it exists', async () => {
    const t = missingHome();
    const r = await runBin(['profiles', 'list'], { env: t.env });
    expect(r.stdout).toBe('*\tdefault\t\tnone\n');
    expect(r.code).toBe(0);
    expect(existsSync(t.home)).toBe(false);
    // The same run with the home folder there: the preload does create the cache's folder.
    mkdirSync(t.home);
    expect((await runBin(['profiles', 'list'], { env: t.env })).code).toBe(0);
    expect(existsSync(join(t.home, '.cache', 'bo', 'compile-cache'))).toBe(true);
  });

  it('--sandbox: exit 2 naming BO_DATA_DIR, and no folder is created; with BO_DATA_DIR it runs', async () => {
    const t = missingHome();
    const r = await runBin(['--sandbox', 'accounts', 'list'], { env: t.env });
    expect(r.stderr).toBe(
      `error: the home folder ${t.home} does not exist, and bo does not create it: set BO_DATA_DIR to a folder for the sandbox's state\n`,
    );
    expect(r.code).toBe(2);
    expect(existsSync(t.home)).toBe(false);
    const data = join(t.root, 'data');
    const ok = await runBin(['--sandbox', 'accounts', 'list', '--limit', '1'], { env: { ...t.env, BO_DATA_DIR: data } });
    expect(ok.stdout).toMatch(/^acc_/);
    expect(ok.code).toBe(0);
    expect(existsSync(join(data, 'sandbox-state.json'))).toBe(true);
    expect(existsSync(t.home)).toBe(false);
  });

  it('a setting to save: exit 2 naming BO_CONFIG_DIR, and no folder is created', async () => {
    const t = missingHome();
    const r = await runBin(['config', 'set', 'timeout', '10'], { env: t.env });
    expect(r.stderr).toBe(`error: the home folder ${t.home} does not exist, and bo does not create it: set BO_CONFIG_DIR to a folder for bo's settings\n`);
    expect(r.code).toBe(2);
    expect(existsSync(t.home)).toBe(false);
  });
});
