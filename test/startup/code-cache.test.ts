// bin/bo.js turns on Node's own compile cache (module.enableCompileCache, Node >= 22.8)
// in the user's cache folder; Node 20 has none and runs the bundle as it is. The cache
// may only ever make `bo` faster: made on the first run, used after, and a broken or
// unwritable cache changes nothing a user sees.
// Only ever in a folder the user alone can change (bin/private-folder.cjs): a cache is
// code the process runs, so another local user must not be able to put one there.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as Module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cacheLogEnv, cachedFiles, splitCacheLog } from '../helpers/compile-cache-log.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';

const hasCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function fresh() {
  const cfg = tempConfig();
  const cache = join(cfg.root, 'cache');
  return { cfg, cache, env: { ...cfg.env, HOME: cfg.root, XDG_CACHE_HOME: cache, BO_DATA_DIR: join(cfg.root, 'data') } };
}

/** Every file under the compile cache folder (Node names them), with its path. */
function entries(cache: string): string[] {
  const folder = join(cache, 'bo', 'compile-cache');
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

const sandboxList = ['--sandbox', 'accounts', 'list', '--limit', '3'];

describe.runIf(hasCompileCache)('the compile cache (a Node that has one)', () => {
  it('is made by the first run in the user cache folder, private to the user, and used after with the same output', async () => {
    const { cache, env } = fresh();
    const first = await runBin(sandboxList, { env });
    expect(first).toMatchObject({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    // dist/bo.cjs and the sandbox it loaded (dist/lazy/sandbox.cjs).
    const made = entries(cache);
    expect(made).toHaveLength(2);
    for (const file of made) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'bo', 'compile-cache')).mode & 0o777).toBe(0o700);
    const times = made.map((file) => statSync(file).mtimeMs);

    const second = await runBin(sandboxList, { env });
    expect(second).toEqual(first);
    expect(entries(cache)).toEqual(made);
    expect(made.map((file) => statSync(file).mtimeMs)).toEqual(times); // used, not made again
  });

  it('is ignored and replaced when it is garbage, and the run is the same', async () => {
    const { cache, env } = fresh();
    const argv = ['--sandbox', 'accounts', 'get', 'acc_none'];
    const clean = await runBin(argv, { env });
    expect(clean.code).toBe(3);
    const made = entries(cache);
    expect(made).toHaveLength(2);
    for (const file of made) writeFileSync(file, Buffer.alloc(4096, 7));
    expect(await runBin(argv, { env })).toEqual(clean);
    for (const file of made) {
      expect(statSync(file).size).not.toBe(4096); // a cache Node accepts took its place
      expect(readFileSync(file).equals(Buffer.alloc(statSync(file).size, 7))).toBe(false);
    }
  });
});

// A cache only in a folder the user alone can change (bin/private-folder.cjs);
// test/startup/shared-cache.test.ts plants one as another user.
describe.runIf(hasCompileCache)('the compile cache in a folder others can write', () => {
  it("with HOME unset, Node's fallback in the temporary folder is never used: no cache", async () => {
    const { cfg, env } = fresh();
    const tmp = join(cfg.root, 'tmp');
    mkdirSync(tmp);
    const r = await runBin(sandboxList, { env: { ...env, HOME: undefined, XDG_CACHE_HOME: undefined, TMPDIR: tmp } });
    expect(r).toMatchObject({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a cache folder others can write is not used, and the run is the same', async () => {
    const { cache, env } = fresh();
    const folder = join(cache, 'bo', 'compile-cache');
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o777);
    const r = await runBin(sandboxList, { env });
    expect(r).toMatchObject({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    expect(readdirSync(folder)).toEqual([]);
    expect(statSync(folder).mode & 0o777).toBe(0o777);
  });

  it('NODE_COMPILE_CACHE in a folder others can write: bo runs again without it before loading any bundle', async () => {
    const { cfg, env } = fresh();
    const shared = join(cfg.root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const r = await runBin(sandboxList, { env: { ...env, ...cacheLogEnv, NODE_COMPILE_CACHE: join(shared, 'cache') } });
    const { stderr, log } = splitCacheLog(r.stderr);
    expect({ code: r.code, stderr }).toEqual({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    // bin/bo.js and the check it requires: compiled by Node before any code of bo's runs.
    expect(cachedFiles(log)).toEqual(['bo.js', 'private-folder.cjs'].map((f) => fileURLToPath(new URL(`../../bin/${f}`, import.meta.url))));
    expect(log).toContain('[compile cache] Disabled by NODE_DISABLE_COMPILE_CACHE.');
  });

  it('NODE_COMPILE_CACHE in a folder of the user alone is kept', async () => {
    const { cfg, env } = fresh();
    const own = join(cfg.root, 'own');
    const run = () => runBin(sandboxList, { env: { ...env, ...cacheLogEnv, NODE_COMPILE_CACHE: own } });
    expect((await run()).code).toBe(0);
    const { log } = splitCacheLog((await run()).stderr);
    const bundle = fileURLToPath(new URL('../../dist/bo.cjs', import.meta.url));
    expect(log).toContain(`[compile cache] V8 code cache for CommonJS ${bundle} was accepted, keeping the in-memory entry`);
    expect(existsSync(join(cfg.root, 'cache'))).toBe(false); // bo's own folder not used
  });
});

describe.runIf(!hasCompileCache)('no compile cache (Node 20)', () => {
  it('writes nothing to the cache folder, and runs the same twice', async () => {
    const { cache, env } = fresh();
    const first = await runBin(sandboxList, { env });
    expect(first).toMatchObject({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    expect(await runBin(sandboxList, { env })).toEqual(first);
    expect(existsSync(cache)).toBe(false);
  });
});

describe('the loader', () => {
  it('changes nothing a user sees when the cache folder cannot be written', async () => {
    const { cfg, env } = fresh();
    const blocker = join(cfg.root, 'not-a-folder');
    writeFileSync(blocker, '');
    const r = await runBin(['--sandbox', 'accounts', 'list', '--limit', '2'], { env: { ...env, XDG_CACHE_HOME: blocker } });
    expect(r).toMatchObject({ code: 0, stderr: 'showing 2 of 60; pass --all for every record\n' });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('bin/bo.js is a short shim (60 lines, none of bin/ over 100 characters), and neither bin/ (the single executable\'s bin/sea.cjs too) nor src/ has a module loader, V8 flags, globals of its own or hidden marks (WeakSet)', () => {
    const shim = readFileSync(new URL('../../bin/bo.js', import.meta.url), 'utf8');
    expect(shim.trimEnd().split('\n').length).toBeLessThanOrEqual(60);
    const bin = fileURLToPath(new URL('../../bin', import.meta.url));
    // Read without scrolling: no line of bin/ over 100 characters.
    for (const file of readdirSync(bin)) {
      const long = readFileSync(join(bin, file), 'utf8').split('\n').filter((line) => line.length > 100);
      expect(long, file).toEqual([]);
    }
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const files = [...readdirSync(bin).map((f) => join(bin, f)), ...readdirSync(src, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).map((f) => join(src, f))];
    expect(files).toContain(join(bin, 'sea.cjs'));
    const tricks = /\bnode:vm\b|vm\.Script|runIn(This|New)Context|setFlagsFromString|expose-gc|Symbol\.for\(|cachedData|new WeakSet\b/;
    expect(files.filter((file) => tricks.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
