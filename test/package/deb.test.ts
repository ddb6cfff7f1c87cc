// The Debian package of `npm run build:deb` as an admin installs it, but into a throwaway
// root: dpkg with its own root and admin folder (never the machine's /usr), then bo from
// there (--version, its man page, a bash completion, a sandbox command), then its
// removal, after which nothing of it is left. lintian finds no error in it, and its
// copyright file names every component of the SBOM beside it with its licence.
//
// BO_RELEASE_DIR names a folder `npm run build:deb -- --out DIR` filled (.ci/run builds
// it once); without it this file builds one into a temporary folder first (minutes).
// lintian must be installed under CI (.ci/run installs it); locally its check is
// skipped when it is missing, and in the CI passes after the first (BO_RELEASE_CHECKED,
// set by .ci/run) since the package is the same one.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { underCi } from '../helpers/affected-node.js';
import { typeInBash } from '../completion/shells.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version as string;
const hasLintian = spawnSync('lintian', ['--version']).status === 0;
const checkedEarlier = !!process.env.BO_RELEASE_CHECKED;

let work: string;
let release: string;
let deb: string;
/** The throwaway root dpkg installs into, with its own admin folder. */
let root: string;

/** dpkg on the throwaway root: its files, its database and its log all under it. */
function dpkg(args: string[]) {
  return spawnSync('dpkg', [`--root=${root}`, `--admindir=${root}/var/lib/dpkg`, `--log=${root}/dpkg.log`, '--force-not-root', ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${process.env.PATH ?? '/usr/bin:/bin'}:/usr/sbin:/sbin` },
  });
}

/** Every file and folder under the root but dpkg's own database and log. */
function leftUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => p.replaceAll('\\', '/'))
    .filter((p) => !/^var(\/lib(\/dpkg(\/.*)?)?)?$/.test(p) && p !== 'dpkg.log')
    .sort();
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bo-deb-test-'));
  if (process.env.BO_RELEASE_DIR) release = resolve(process.env.BO_RELEASE_DIR);
  else {
    release = join(work, 'release');
    execFileSync(process.execPath, [join(repo, 'scripts/build-deb.mjs'), '--out', release], { cwd: repo, stdio: 'pipe' });
  }
  deb = join(release, `bo_${version}_amd64.deb`);
  if (!existsSync(deb)) throw new Error(`${deb}: no such file (npm run build:deb makes it)`);
  root = join(work, 'root');
  mkdirSync(join(root, 'var/lib/dpkg/updates'), { recursive: true });
  mkdirSync(join(root, 'var/lib/dpkg/info'), { recursive: true });
  writeFileSync(join(root, 'var/lib/dpkg/status'), '');
}, 1_200_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the Debian package', () => {
  it('is bo for amd64, owned by root, with Depends from dpkg-shlibdeps and no maintainer script', () => {
    const field = (name: string) => execFileSync('dpkg-deb', ['-f', deb, name], { encoding: 'utf8' }).trim();
    expect(field('Package')).toBe('bo');
    expect(field('Version')).toBe(version);
    expect(field('Architecture')).toBe('amd64');
    expect(field('Depends')).toMatch(/^libc6 \(>= [\d.]+\), libgcc-s1 \(>= [\d.]+\), libstdc\+\+6 \(>= [\d.]+\)$/);
    const control = execFileSync('bash', ['-c', 'dpkg-deb --ctrl-tarfile "$1" | tar -t', 'ctrl', deb], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(control).toEqual(['./', './control', './md5sums']);
    const listing = execFileSync('dpkg-deb', ['-c', deb], { encoding: 'utf8', maxBuffer: 16 << 20 }).split('\n').filter(Boolean);
    expect(listing.filter((line) => !/^[-dl][rwx-]{9} root\/root /.test(line))).toEqual([]);
    const paths = listing.map((line) => line.slice(line.indexOf('./') + 1));
    for (const path of [
      '/usr/bin/bo',
      '/usr/share/man/man1/bo.1.gz',
      '/usr/share/man/man1/bo-accounts-list.1.gz',
      '/usr/share/bash-completion/completions/bo',
      '/usr/share/zsh/vendor-completions/_bo',
      '/usr/share/fish/vendor_completions.d/bo.fish',
      '/usr/share/doc/bo/copyright',
      '/usr/share/doc/bo/changelog.gz',
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.filter((p) => p.startsWith('/usr/share/man/man1/')).length).toBe(readdirSync(join(repo, 'man')).filter((f) => f.endsWith('.1')).length + 1);
  });

  it("names every component of the SBOM beside it, with its licence, in its copyright file", () => {
    const sbom = JSON.parse(readFileSync(join(release, 'bo-linux-x64.cdx.json'), 'utf8')) as { components: Array<{ name: string; version: string; licenses?: Array<{ license?: { id?: string }; expression?: string }> }> };
    const copyright = execFileSync('bash', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -xO ./usr/share/doc/bo/copyright', 'x', deb], { encoding: 'utf8' });
    expect(sbom.components.length).toBeGreaterThan(20);
    for (const c of sbom.components) {
      const licence = c.licenses?.map((l) => l.license?.id ?? l.expression).join(' AND ');
      expect(licence, c.name).toBeTruthy();
      expect(copyright, c.name).toContain(`\n${c.name} ${c.version}\n License: ${licence}\n`);
    }
  });

  it.skipIf((!hasLintian && !underCi) || checkedEarlier)(
    `lintian reports no error in it${checkedEarlier ? ' (skipped: this CI run checked the same package in its first pass)' : !hasLintian ? ' (skipped: lintian is not installed; .ci/run installs it)' : ''}`,
    () => {
      const r = spawnSync('lintian', ['--tag-display-limit', '0', deb], { encoding: 'utf8', timeout: 900_000 });
      expect(r.stdout.split('\n').filter((line) => line.startsWith('E: '))).toEqual([]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
    },
    900_000,
  );

  it('installs into a throwaway root, where bo runs, shows its man page and completes in bash, then is removed leaving nothing', async () => {
    const installed = dpkg(['-i', '--force-depends', deb]);
    expect(installed.status, installed.stderr).toBe(0);
    expect(dpkg(['-s', 'bo']).stdout).toMatch(/^Status: install ok installed$/m);
    const bo = join(root, 'usr/bin/bo');
    const home = join(work, 'home');
    mkdirSync(home);
    const env = { PATH: `${join(root, 'usr/bin')}:/usr/bin:/bin`, HOME: home, BO_CONFIG_DIR: join(home, 'config'), BO_DATA_DIR: join(home, 'data'), LANG: 'C.UTF-8' };

    expect(spawnSync(bo, ['--version'], { encoding: 'utf8', env })).toMatchObject({ status: 0, stdout: `${version}\n` });

    const man = spawnSync('man', ['-P', 'cat', '-l', join(root, 'usr/share/man/man1/bo.1.gz')], { encoding: 'utf8', env: { ...env, MANWIDTH: '100' } });
    expect(man.status, man.stderr).toBe(0);
    expect(man.stdout).toMatch(/NAME\s+bo - admin tool for the subscription back office/);

    const completion = readFileSync(join(root, 'usr/share/bash-completion/completions/bo'), 'utf8');
    expect(await typeInBash(completion, ['bo accounts extend-t', 'bo sandbox se'], env)).toEqual(['bo accounts extend-trial ', 'bo sandbox serve ']);

    const list = spawnSync(bo, ['--sandbox', 'accounts', 'list', '--limit', '1'], { encoding: 'utf8', env });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(list.stdout).toMatch(/^acc_\w+\t/);

    const removed = dpkg(['--purge', 'bo']);
    expect(removed.status, removed.stderr).toBe(0);
    expect(dpkg(['-s', 'bo']).status).not.toBe(0);
    expect(leftUnder(root), `left in ${relative(repo, root)}`).toEqual([]);
  }, 300_000);
});
