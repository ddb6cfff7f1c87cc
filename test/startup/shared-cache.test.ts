// A compile cache another local user planted is never loaded by the user's `bo`
// (bin/private-folder.cjs). Two real users: the planter makes a genuine cache of bo's own
// files by running bo itself (Node accepts it for the same files anywhere), then puts it
// where the victim's Node would look, in folders it leaves writable by all. Node's own
// log (NODE_DEBUG_NATIVE=COMPILE_CACHE) of the victim's run shows every cache entry it
// reads or accepts; with a folder of the victim's own, the same log shows the cache
// accepted, so the log is proof either way. Needs root (it creates the users) and a Node
// with a compile cache (>= 22.8); skipped elsewhere, with the reason in its name.
import { chmodSync, copyFileSync, cpSync, readdirSync, statSync } from 'node:fs';
import * as Module from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheLogEnv, cachedFiles, splitCacheLog } from '../helpers/compile-cache-log.js';
import { folderOf, must, planterAndVictim, whyNoUsers, type Ran } from '../helpers/local-users.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const hasCompileCache = typeof (Module as { getCompileCacheDir?: unknown }).getCompileCacheDir === 'function';
const skip = whyNoUsers ?? (hasCompileCache ? undefined : 'this Node has no compile cache (Node < 22.8)');
const listOne = ['--sandbox', 'accounts', 'list', '--limit', '1'];
const shown = 'showing 1 of 60; pass --all for every record\n';

describe.skipIf(skip)(`a compile cache planted by another local user${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const them = planterAndVictim();
  /** A copy of bo (bin/, dist/) and of this Node that every user can run. */
  let app: string;
  let node: string;
  /** The planter's genuine cache of bo's files (bin/bo.js, dist/bo.cjs …). */
  let genuine: string;
  /** Node's name for the victim's folder of a cache: <version>-<arch>-<hash>-<uid>. */
  let victimTag: string;

  beforeAll(() => {
    const { work, planter, victim, victimHome } = them;
    app = join(work.root, 'app');
    cpSync(join(repo, 'bin'), join(app, 'bin'), { recursive: true });
    cpSync(join(repo, 'dist'), join(app, 'dist'), { recursive: true });
    node = join(work.root, 'node');
    copyFileSync(process.execPath, node);
    chmodSync(node, 0o755);
    const planterHome = folderOf(planter, join(work.root, 'planter'));
    const probe = victim.run([node, '-p', 'require("node:module").getCompileCacheDir()'], { NODE_COMPILE_CACHE: join(victimHome, 'probe') }, work.root);
    must(probe);
    victimTag = basename(probe.stdout.trim());
    const made = planter.run([node, join(app, 'bin/bo.js'), ...listOne], { HOME: planterHome, NODE_COMPILE_CACHE: join(planterHome, 'ncc') }, work.root);
    must(made);
    genuine = join(planterHome, 'ncc', readdirSync(join(planterHome, 'ncc'))[0]!);
    expect(readdirSync(genuine).length).toBeGreaterThanOrEqual(3);
  }, 120_000);

  /** The planter's cache copied into `folder` (made by the planter, every folder 0777); what it holds then. */
  function plant(folder: string): string[] {
    const script = 'umask 000 && mkdir -p "$1" && cp "$2"/* "$1"/ && chmod 644 "$1"/*';
    must(them.planter.run(['sh', '-c', script, 'plant', folder, genuine], { PATH: '/usr/bin:/bin' }, them.work.root));
    return holding(folder);
  }

  function holding(folder: string): string[] {
    return readdirSync(folder).map((name) => `${name} ${statSync(join(folder, name)).mtimeMs}`).sort();
  }

  /** `bo --sandbox accounts list --limit 1` as the victim, with Node's log of its compile cache. */
  function victimRuns(env: Record<string, string>): Ran & { log: string[] } {
    const r = them.victim.run([node, join(app, 'bin/bo.js'), ...listOne], { PATH: '/usr/bin:/bin', ...cacheLogEnv, ...env }, them.work.root);
    return { ...r, ...splitCacheLog(r.stderr) };
  }

  it("with HOME unset, the victim's folder the planter made in the shared TMPDIR (Node's fallback) is never read: no cache at all", () => {
    const planted = join(them.work.tmp, 'node-compile-cache', victimTag);
    const before = plant(planted);
    const data = join(them.victimHome, 'unset');
    const r = victimRuns({ TMPDIR: them.work.tmp, BO_CONFIG_DIR: join(data, 'config'), BO_DATA_DIR: join(data, 'data') });
    expect(r).toMatchObject({ code: 0, stderr: shown });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.log).toEqual([]);
    expect(holding(planted)).toEqual(before);
  });

  it("with XDG_CACHE_HOME in a folder the planter can write, its cache is never read; the victim's own folder's is", () => {
    const xdg = join(them.work.tmp, 'xdg');
    const planted = join(xdg, 'bo', 'compile-cache', victimTag);
    const before = plant(planted);
    const r = victimRuns({ HOME: them.victimHome, XDG_CACHE_HOME: xdg });
    expect(r).toMatchObject({ code: 0, stderr: shown });
    expect(r.log.filter((line) => line.includes(xdg))).toEqual([]);
    expect(cachedFiles(r.log)).toEqual([]);
    expect(holding(planted)).toEqual(before);

    // The same log shows a cache read and accepted when it is the victim's own.
    const own = join(them.victimHome, '.cache', 'bo', 'compile-cache', victimTag);
    expect(victimRuns({ HOME: them.victimHome }).code).toBe(0);
    const again = victimRuns({ HOME: them.victimHome });
    expect(again).toMatchObject({ code: 0, stdout: r.stdout, stderr: shown });
    expect(again.log).toContain(`[compile cache] V8 code cache for CommonJS ${join(app, 'dist/bo.cjs')} was accepted, keeping the in-memory entry`);
    expect(again.log.some((line) => line.startsWith(`[compile cache] reading cache from ${own}/`))).toBe(true);
  });

  it("a cache folder the victim's group can write: used when the group is the victim's alone, never when the planter is in it", () => {
    const home = them.victimHome;
    const ownGroup = folderOf(them.victim, join(them.work.root, 'own-group'), 0o775);
    expect(victimRuns({ HOME: home, XDG_CACHE_HOME: ownGroup }).code).toBe(0);
    const again = victimRuns({ HOME: home, XDG_CACHE_HOME: ownGroup });
    expect(again).toMatchObject({ code: 0, stderr: shown });
    expect(again.log).toContain(`[compile cache] V8 code cache for CommonJS ${join(app, 'dist/bo.cjs')} was accepted, keeping the in-memory entry`);
    expect(again.log.some((line) => line.startsWith(`[compile cache] reading cache from ${ownGroup}/bo/compile-cache/`))).toBe(true);

    const sharedGroup = folderOf(them.victim, join(them.work.root, 'shared-group'), 0o775, them.planter.gid);
    const r = victimRuns({ HOME: home, XDG_CACHE_HOME: sharedGroup });
    expect(r).toMatchObject({ code: 0, stderr: shown });
    expect(r.log).toEqual([]);
    expect(readdirSync(sharedGroup, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory())).toEqual([]);
  });

  it('with NODE_COMPILE_CACHE naming a folder the planter can write, no bundle is read from it: only what Node loads before bo runs', () => {
    const ncc = join(them.work.tmp, 'ncc');
    const planted = join(ncc, victimTag);
    plant(planted);
    const r = victimRuns({ HOME: them.victimHome, NODE_COMPILE_CACHE: ncc });
    expect(r).toMatchObject({ code: 0, stderr: shown });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    // bin/bo.js and the check it requires are compiled by Node before any code of bo's runs.
    expect(cachedFiles(r.log)).toEqual([join(app, 'bin/bo.js'), join(app, 'bin/private-folder.cjs')]);
    expect(r.log).toContain('[compile cache] Disabled by NODE_DISABLE_COMPILE_CACHE.');
  });
});
