// bin/bo.js compiles dist/bo.cjs with a V8 code cache kept in the user's cache folder
// (issue #12, start-up). The cache may only ever make `bo` faster: made on the first
// run, used after, and a broken, foreign or unwritable cache changes nothing a user sees.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';

function fresh() {
  const cfg = tempConfig();
  const cache = join(cfg.root, 'cache');
  return { cfg, cache, env: { ...cfg.env, HOME: cfg.root, XDG_CACHE_HOME: cache, BO_DATA_DIR: join(cfg.root, 'data') } };
}

const buildId = () => /^\/\/ bo build ([0-9a-f]+)\n/.exec(readFileSync(new URL('../../dist/bo.cjs', import.meta.url), 'utf8'))![1];
const cacheFiles = (cache: string) => readdirSync(join(cache, 'bo')).sort();

describe('the code cache of the bundle', () => {
  it('is made by the first run, per command group, private to the user, and gives the same output after', async () => {
    const { cache, env } = fresh();
    const first = await runBin(['--sandbox', 'accounts', 'list', '--limit', '3'], { env });
    expect(first).toMatchObject({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    // One for dist/bo.cjs and one for the sandbox it loaded (dist/lazy/sandbox.cjs).
    const name = `code-${process.version}-${process.arch}-${buildId()}-accounts.v8`;
    const sandbox = name.replace('.v8', '.sandbox.v8');
    expect(cacheFiles(cache)).toEqual([sandbox, name]);
    for (const file of [name, sandbox]) expect(statSync(join(cache, 'bo', file)).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'bo')).mode & 0o777).toBe(0o700);
    const made = [name, sandbox].map((file) => statSync(join(cache, 'bo', file)).mtimeMs);

    const second = await runBin(['--sandbox', 'accounts', 'list', '--limit', '3'], { env });
    expect(second).toEqual(first);
    expect([name, sandbox].map((file) => statSync(join(cache, 'bo', file)).mtimeMs)).toEqual(made); // used, not made again

    const config = await runBin(['config', 'list'], { env });
    expect(config.code).toBe(0);
    const configName = name.replace('-accounts.v8', '-config.v8');
    expect(cacheFiles(cache)).toEqual([sandbox, name, configName]);
  });

  it('is ignored and replaced when it is garbage, and the run is the same', async () => {
    const { cache, env } = fresh();
    const clean = await runBin(['--sandbox', 'accounts', 'get', 'acc_none'], { env: { ...env, XDG_CACHE_HOME: join(cache, 'elsewhere') } });
    const name = join(cache, 'bo', `code-${process.version}-${process.arch}-${buildId()}-accounts.v8`);
    const sandbox = name.replace('.v8', '.sandbox.v8');
    await runBin(['config', 'list'], { env }); // makes the folder
    for (const file of [name, sandbox]) writeFileSync(file, Buffer.alloc(4096, 7));
    const r = await runBin(['--sandbox', 'accounts', 'get', 'acc_none'], { env });
    expect(r).toEqual(clean);
    expect(r.code).toBe(3);
    for (const file of [name, sandbox]) {
      expect(statSync(file).size).not.toBe(4096); // a cache V8 accepts took its place
      expect(readFileSync(file).equals(Buffer.alloc(statSync(file).size, 7))).toBe(false);
    }
  });

  it('removes the caches of earlier builds for this Node when it makes one', async () => {
    const { cache, env } = fresh();
    await runBin(['config', 'list'], { env });
    const old = `code-${process.version}-${process.arch}-0000000000aaaaaaaaaa-accounts.v8`;
    const otherNode = `code-v0.0.1-${process.arch}-0000000000aaaaaaaaaa-accounts.v8`;
    writeFileSync(join(cache, 'bo', old), 'x');
    writeFileSync(join(cache, 'bo', otherNode), 'x');
    expect((await runBin(['--sandbox', 'accounts', 'list', '--limit', '1'], { env })).code).toBe(0);
    const current = `code-${process.version}-${process.arch}-${buildId()}`;
    expect(cacheFiles(cache)).toEqual(
      [otherNode, ...['accounts.sandbox', 'accounts', 'config'].map((n) => `${current}-${n}.v8`)].sort(),
    );
  });

  it('changes nothing a user sees when the cache folder cannot be written', async () => {
    const { cfg, env } = fresh();
    const blocker = join(cfg.root, 'not-a-folder');
    writeFileSync(blocker, '');
    const r = await runBin(['--sandbox', 'accounts', 'list', '--limit', '2'], { env: { ...env, XDG_CACHE_HOME: blocker } });
    expect(r).toMatchObject({ code: 0, stderr: 'showing 2 of 60; pass --all for every record\n' });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});
