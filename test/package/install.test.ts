// The package as a user gets it: `npm pack` makes the tarball, `npm install -g` puts it
// in a temporary prefix (dependencies from the local npm cache, --prefer-offline), and
// the installed `bo` runs with its own HOME, config and data folders. The tarball holds
// only what runs: bin/, dist/, completions/, man/ and the package's documents.

import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 240_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

interface Packed {
  filename: string;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

let root: string;
let packed: Packed;
let installed: string;
/** What `npm install -g` of the tarball said on stderr. */
let installStderr: string;
let prefixBin: string;
/** The repository's package.json before and after `npm pack`; what `npm install -g` printed. */
let manifestBefore: string;
let manifestAfter: string;
let installOutput: string;
/** The installed bo's environment: nothing from the developer's own folders. */
let boEnv: Record<string, string | undefined>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'bo-package-'));
  const home = join(root, 'home');
  mkdirSync(home);
  // npm keeps the developer's cache (the `npm ci` downloads) and settings (registry,
  // CA file); everything else lives in the temp folder.
  // The network settings too (a CA added for a proxy, the proxy itself): a global
  // install resolves versions afresh and may fetch what the cache lacks.
  const network = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k === 'NODE_EXTRA_CA_CERTS' || /^(https?|no)_proxy$/i.test(k)),
  );
  const npmEnv = {
    ...network,
    PATH: process.env.PATH,
    HOME: home,
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    npm_config_userconfig: process.env.npm_config_userconfig ?? join(homedir(), '.npmrc'),
    npm_config_update_notifier: 'false',
  };
  // The real flow, scripts and all: prepack takes `prepare` out of the packed
  // package.json and postpack puts the repository's back; packing never builds (dist/
  // is already built: npm test builds it first), so nothing is pulled from under the
  // tests running beside this one.
  manifestBefore = readFileSync(join(repo, 'package.json'), 'utf8');
  const pack = await run(npm, ['pack', '--json', '--pack-destination', root], { cwd: repo, env: npmEnv });
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  packed = (JSON.parse(pack.stdout) as Packed[])[0]!;
  manifestAfter = readFileSync(join(repo, 'package.json'), 'utf8');

  const prefix = join(root, 'prefix');
  const install = await run(
    npm,
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(root, packed.filename)],
    { cwd: home, env: npmEnv },
  );
  if (install.code !== 0) throw new Error(`npm install -g failed: ${install.stderr}`);
  installStderr = install.stderr;
  installOutput = install.stdout + install.stderr;
  installed = join(prefix, 'lib', 'node_modules', 'bo');
  prefixBin = join(prefix, 'bin');
  boEnv = {
    PATH: `${prefixBin}:${process.env.PATH}`,
    HOME: home,
    BO_CONFIG_DIR: join(home, 'config'),
    BO_DATA_DIR: join(home, 'data'),
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
  };
}, 300_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const bo = (args: string[]) => run(join(prefixBin, 'bo'), args, { cwd: boEnv.HOME!, env: boEnv });

describe('the npm package', () => {
  it('holds only bin/, dist/, completions/, man/, docs/, README.md and package.json (and a CHANGELOG or LICENSE)', () => {
    const paths = packed.files.map((f) => f.path).sort();
    const documents = new Set(['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']);
    const stray = paths.filter((p) => !documents.has(p) && !/^(bin|dist|completions|man|docs)\//.test(p));
    expect(stray).toEqual([]);
    expect(paths.filter((p) => /\.(ts|map)$|(^|\/)(test|src|fixtures?)\//.test(p))).toEqual([]);
    for (const needed of ['bin/bo.js', 'dist/bo.cjs', 'dist/complete.cjs', 'completions/bo.bash', 'completions/_bo', 'completions/bo.fish', 'man/bo.1', 'man/bo-addons-expire.1', 'README.md', 'docs/guide.md', 'package.json']) {
      expect(paths).toContain(needed);
    }
  });

  it('is under 2.7 MB unpacked (its dependencies are installed beside it; jq.wasm, bundled, is 0.93 MB of it, the main bundle 0.69 MB, the man pages 0.2 MB)', () => {
    expect(packed.unpackedSize).toBe(packed.files.reduce((sum, f) => sum + f.size, 0));
    expect(packed.unpackedSize).toBeLessThan(2_700_000);
  });

  it('carries no install-time script: npm install -g prints no install-scripts warning; the repository keeps prepare for npm ci', () => {
    expect(installOutput).not.toMatch(/install-scripts|install script/i);
    const scripts = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
    for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts).not.toHaveProperty(name);
    expect(manifestAfter).toBe(manifestBefore);
    expect((JSON.parse(manifestAfter) as { scripts: Record<string, string> }).scripts.prepare).toBe('node scripts/build.mjs');
    expect(existsSync(join(repo, '.package.json.pack'))).toBe(false);
  });

  it('installs bo with its completions and README', () => {
    expect(existsSync(join(prefixBin, 'bo'))).toBe(true);
    expect(readdirSync(join(installed, 'completions')).sort()).toEqual(['_bo', 'bo.bash', 'bo.fish']);
    expect(readFileSync(join(installed, 'README.md'), 'utf8')).toBe(readFileSync(join(repo, 'README.md'), 'utf8'));
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'test'))).toBe(false);
  });

  it('installs the man pages where man finds them: man bo, man bo-addons-expire', async () => {
    const manPath = join(prefixBin, '..', 'share', 'man');
    for (const page of ['bo', 'bo-addons-expire', 'bo-accounts-list']) {
      const found = await run('man', ['-M', manPath, '-w', page], { cwd: boEnv.HOME!, env: { PATH: process.env.PATH } });
      expect(found.stderr).toBe('');
      expect(found.code).toBe(0);
      // npm links share/man/man1/<page>.1 to the package's man/ file; man names the target.
      const linked = join(manPath, 'man1', `${page}.1`);
      expect(lstatSync(linked).isSymbolicLink() || lstatSync(linked).isFile()).toBe(true);
      expect(found.stdout.trim()).toBe(realpathSync(linked));
      expect(found.stdout.trim()).toBe(join(installed, 'man', `${page}.1`));
    }
    const shown = await run('man', ['-M', manPath, 'bo-addons-expire'], { cwd: boEnv.HOME!, env: { PATH: process.env.PATH, MANPAGER: 'cat', MANWIDTH: '80' } });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('bo addons expire');
  });

  it('every package the installed code imports is installed with it', async () => {
    const specifiers = new Set<string>();
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (/\.[cm]?js$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          // A package name (npm's rules), not any text that follows the word "from" in a string.
          const name = String.raw`(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*(?:\/[^"'\s]*)?`;
          for (const m of text.matchAll(new RegExp(`(?:\\bfrom\\s*|\\b(?:import|require)\\s*\\(\\s*)["'](${name})["']`, 'g'))) specifiers.add(m[1]!);
        }
      }
    };
    visit(join(installed, 'dist'));
    visit(join(installed, 'bin'));
    const packages = [...specifiers].filter((s) => !s.startsWith('node:') && !isBuiltin(s));
    expect(packages).toEqual(expect.arrayContaining(['@inquirer/input', '@inquirer/password', '@inquirer/confirm', '@inquirer/select']));
    const check = await run(
      process.execPath,
      ['--input-type=module', '-e', 'for (const s of JSON.parse(process.argv[1])) import.meta.resolve(s)', JSON.stringify(packages)],
      { cwd: installed, env: { PATH: process.env.PATH } },
    );
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  // A deprecated package among bo's dependencies is one nobody maintains any more: npm
  // warns of it (from the registry's record of each version) at every install.
  it('installs no package its registry marks deprecated', () => {
    expect(installStderr.split('\n').filter((line) => /npm warn deprecated/i.test(line))).toEqual([]);
  });

  it('runs bo --version from the installed copy', async () => {
    const r = await bo(['--version']);
    expect(r).toEqual({ code: 0, stdout: `${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version}\n`, stderr: '' });
  });

  it('runs bo --sandbox accounts list from the installed copy', async () => {
    const r = await bo(['--sandbox', 'accounts', 'list']);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row).toMatch(/^acc_\S+\t[^\t]+\t\d \w+\t/);
    // The sandbox state went to the temp data folder.
    expect(readdirSync(boEnv.BO_DATA_DIR!).length).toBeGreaterThan(0);
  });

  it('runs bo completion bash from the installed copy: the shipped script', async () => {
    const r = await bo(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(installed, 'completions', 'bo.bash'), 'utf8'));
  });

  it('answers bo __complete from the installed copy', async () => {
    const r = await bo(['__complete', 'profiles']);
    expect(r).toEqual({ code: 0, stdout: 'default\n', stderr: '' });
  });
});

function isBuiltin(name: string): boolean {
  return builtinModules.includes(name.split('/')[0]!);
}
