// `bo` as an admin without Node runs it: the single executable of `npm run build:binary`,
// copied alone into a folder on PATH (no dist/, no node_modules beside it), in a user's
// shell with a real gnome-keyring (run under .ci/keyring.sh). BO_BINARY names a prebuilt
// executable (CI builds it once, with its archive beside it); without it the file builds
// one into a temporary folder first (minutes: the archive's compression).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginSandbox } from '../auth/login-harness.js';
import { typeInBash } from '../completion/shells.js';
import { cacheLogEnv, cachedFiles, splitCacheLog } from '../helpers/compile-cache-log.js';
import { keyringEnv, secretToolLookup } from '../helpers/keyring.js';
import { folderOf, must, planterAndVictim, whyNoUsers } from '../helpers/local-users.js';
import { privateKeyring, runCommand, runInOrder, tourCommands } from '../readme/tour.js';
import { decodeWithZbar, matrixFromAnsi, pngFromMatrix } from './qr-image.js';
import { startE2eSandbox } from './sandbox-process.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version as string;
const target = `bo-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

let work: string;
/** The executable as built (its archive beside it). */
let built: string;
/** A folder holding only `bo`, a copy of the executable: for PATH. */
let binDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bo-sea-'));
  if (process.env.BO_BINARY) {
    built = resolve(process.env.BO_BINARY);
    if (!existsSync(built)) throw new Error(`BO_BINARY=${process.env.BO_BINARY}: no such file (npm run build:binary makes dist/${target})`);
  } else {
    execFileSync(process.execPath, [join(repo, 'scripts/build-binary.mjs'), '--out', join(work, 'out')], { cwd: repo, stdio: 'pipe' });
    built = join(work, 'out', target);
  }
  binDir = join(work, 'bin');
  mkdirSync(binDir);
  copyFileSync(built, join(binDir, 'bo'));
  execFileSync('chmod', ['755', join(binDir, 'bo')]);
}, 900_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

let homes = 0;
/** A user's shell: the executable as `bo` on PATH, empty home, config and data folders. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = join(work, `home-${homes++}`);
  mkdirSync(home);
  return {
    PATH: `${binDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    BO_CONFIG_DIR: join(home, 'config'),
    BO_DATA_DIR: join(home, 'data'),
    LANG: 'C.UTF-8',
    ...extra,
  };
}

/** One command line through bash, as a user types it. */
async function sh(command: string, env: Record<string, string>, cwd = work) {
  return runCommand(command, { cwd, env, timeoutMs: 60_000 });
}

/** The executable's folder of this build's files under the user's cache folder: <cache>/bo/sea/<build id>. */
function extracted(env: Record<string, string>) {
  const sea = join(env.HOME!, '.cache', 'bo', 'sea');
  const builds = readdirSync(sea).filter((name) => /^[0-9a-f]{16}$/.test(name));
  expect(builds).toHaveLength(1);
  return { sea, folder: join(sea, builds[0]!) };
}

/** Every file under `folder`, as paths relative to it (marks and records included). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(folder, join(e.parentPath, e.name)))
    .sort();
}

describe('the single executable', () => {
  it('answers --version, --help and the embedded sandbox with nothing beside it', async () => {
    const env = userEnv();
    expect(await sh('bo --version', env)).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await sh('bo --help', env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: bo \[options\] \[command\]\n/);
    expect(help.stdout).toContain('accounts');
    const list = await sh('bo --sandbox accounts list --limit 2', env);
    expect(list).toMatchObject({ code: 0 });
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    // The sandbox keeps its state in the usual data folder.
    expect(existsSync(join(env.BO_DATA_DIR!, 'sandbox-state.json'))).toBe(true);
    expect(readdirSync(binDir)).toEqual(['bo']);
  });

  it('runs the README tour, every command in order, each exiting 0', async () => {
    const commands = tourCommands(readFileSync(join(repo, 'README.md'), 'utf8'), 'A five-minute tour');
    const keyring = await privateKeyring(repo);
    try {
      const { runs, failed } = await runInOrder(commands, { cwd: work, env: userEnv(keyring.env), timeoutMs: 60_000 });
      const report = failed && `\`${failed.command}\` exited ${failed.code ?? failed.signal}\nstdout:\n${failed.stdout}\nstderr:\n${failed.stderr}`;
      expect(report).toBeNull();
      expect(runs).toHaveLength(commands.length);
    } finally {
      await keyring.close();
    }
  }, 240_000);

  it('previews a batch with --dry-run: one request a record, nothing sent', async () => {
    const env = userEnv();
    const before = await sh('bo --sandbox accounts get acc_107m14dk7l --json', env);
    expect(before.code).toBe(0);
    const run = await sh("printf 'acc_107m14dk7l\\nacc_1625hnaogy\\n' | bo --sandbox accounts extend-trial - --to 2030-06-30 --dry-run", env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'PUT /api/v1/crm/accounts/acc_107m14dk7l/extend-trial\t{"ToDate":"2030-06-30T23:59:59.000Z"}',
      'PUT /api/v1/crm/accounts/acc_1625hnaogy/extend-trial\t{"ToDate":"2030-06-30T23:59:59.000Z"}',
    ]);
    expect(run.stderr).toContain('2 request(s) would be sent; nothing was sent');
    expect((await sh('bo --sandbox accounts get acc_107m14dk7l --json', env)).stdout).toBe(before.stdout);
  });

  it('completes in bash through `bo __complete`: profiles from the config, and commands', async () => {
    const env = userEnv();
    expect((await sh('bo -p staging config set base-url https://staging.example.com', env)).code).toBe(0);
    const script = await sh('bo completion bash', env);
    expect(script.code).toBe(0);
    const after = await typeInBash(script.stdout, ['bo --profile st', 'bo accounts extend-t', 'bo sandbox se'], {
      PATH: env.PATH!,
      BO_CONFIG_DIR: env.BO_CONFIG_DIR!,
    });
    expect(after).toEqual(['bo --profile staging ', 'bo accounts extend-trial ', 'bo sandbox serve ']);
    expect(await sh('bo __complete profiles', env)).toMatchObject({ code: 0, stdout: 'default\nstaging\n' });
  });

  it("writes its bundles once into a private folder of the user's cache, runs them from there with Node's compile cache, and reuses them", async () => {
    const env = userEnv();
    const first = await sh('bo --sandbox accounts list --limit 3', env);
    expect(first).toMatchObject({ code: 0, stderr: 'showing 3 of 60; pass --all for every record\n' });
    const { sea, folder } = extracted(env);
    for (const f of [sea, folder]) expect(statSync(f).mode & 0o777).toBe(0o700);
    expect(readdirSync(sea)).toEqual([relative(sea, folder)]); // nothing half-written left beside it
    const files = filesUnder(folder);
    for (const f of ['bo.cjs', 'complete.cjs', 'keychain-helper.cjs', 'lazy/sandbox.cjs', 'lazy/inquirer.cjs', 'lazy/jq.cjs', 'lazy/jq.wasm', 'top-help.json', 'native/keyring.node']) expect(files).toContain(f);
    for (const f of files) expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);
    // Node's compile cache of those files, in the folder bin/bo.js gives it under node.
    const compiled = join(env.HOME!, '.cache', 'bo', 'compile-cache');
    expect(filesUnder(compiled).length).toBeGreaterThanOrEqual(2);
    const times = files.map((f) => statSync(join(folder, f)).mtimeMs);
    const cacheTimes = filesUnder(compiled).map((f) => statSync(join(compiled, f)).mtimeMs);
    expect(await sh('bo --sandbox accounts list --limit 3', env)).toEqual(first);
    expect(await sh('bo --version', env)).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(files.map((f) => statSync(join(folder, f)).mtimeMs)).toEqual(times); // used, not written again
    expect(filesUnder(compiled).map((f) => statSync(join(compiled, f)).mtimeMs)).toEqual(cacheTimes);
  });

  it('replaces a folder whose files were changed or truncated, and never uses a half-written one', async () => {
    const env = userEnv();
    const first = await sh('bo --sandbox accounts list --limit 3', env);
    expect(first.code).toBe(0);
    const { sea, folder } = extracted(env);
    const bundle = join(folder, 'bo.cjs');
    const original = readFileSync(bundle);
    const broken = 'process.stdout.write("not bo\\n"); process.exit(9);';

    // Changed: a file of the folder edited.
    writeFileSync(bundle, broken);
    expect(await sh('bo --sandbox accounts list --limit 3', env)).toEqual(first);
    expect(readFileSync(bundle).equals(original)).toBe(true);

    // Truncated, as after a crash, its time kept.
    const before = statSync(bundle);
    writeFileSync(bundle, '');
    utimesSync(bundle, before.atime, before.mtime);
    expect(await sh('bo --sandbox accounts list --limit 3', env)).toEqual(first);
    expect(readFileSync(bundle).equals(original)).toBe(true);

    // Half-written: a run killed while writing leaves a folder that was never renamed
    // into place (and an hour later it is removed); a folder in place without the record
    // written last is not used either.
    const killed = join(sea, `${relative(sea, folder)}.tmp-killed`);
    mkdirSync(join(killed, 'lazy'), { recursive: true, mode: 0o700 });
    writeFileSync(join(killed, 'bo.cjs'), broken);
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(killed, hoursAgo, hoursAgo);
    rmSync(folder, { recursive: true });
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(bundle, broken);
    expect(await sh('bo --sandbox accounts list --limit 3', env)).toEqual(first);
    expect(readFileSync(bundle).equals(original)).toBe(true);
    expect(readdirSync(sea)).toEqual([relative(sea, folder)]);
  });

  // The record holds each file's change time too, which no one can set back.
  it('replaces a folder whose file was edited with its size and modification time restored (touch -r)', async () => {
    const env = userEnv();
    const first = await sh('bo --sandbox accounts list --limit 3', env);
    expect(first.code).toBe(0);
    const bundle = join(extracted(env).folder, 'bo.cjs');
    const original = readFileSync(bundle);
    const reference = join(env.HOME!, 'reference');
    execFileSync('cp', ['--preserve=timestamps', bundle, reference]);
    const edited = Buffer.alloc(original.length, ' ');
    edited.write('process.stdout.write("not bo\\n"); process.exit(9);');
    writeFileSync(bundle, edited);
    execFileSync('touch', ['-r', reference, bundle]);
    expect([statSync(bundle).size, statSync(bundle).mtimeMs]).toEqual([original.length, statSync(reference).mtimeMs]);
    expect(await sh('bo --sandbox accounts list --limit 3', env)).toEqual(first);
    expect(readFileSync(bundle).equals(original)).toBe(true);
  });

  it('two first runs at once both work, and leave one folder', async () => {
    const env = userEnv();
    const runs = await Promise.all([1, 2, 3].map((n) => sh('bo --sandbox accounts list --limit 3', { ...env, BO_DATA_DIR: join(env.HOME!, `data-${n}`) })));
    for (const run of runs) expect(run).toMatchObject({ code: 0, stdout: runs[0]!.stdout, stderr: 'showing 3 of 60; pass --all for every record\n' });
    const { sea, folder } = extracted(env);
    expect(readdirSync(sea)).toEqual([relative(sea, folder)]);
  });

  it('uses a private folder of the temporary folder when the cache folder cannot be written', async () => {
    const home = userEnv();
    const blocker = join(home.HOME!, 'not-a-folder');
    writeFileSync(blocker, '');
    const tmp = join(home.HOME!, 'tmp');
    const fallback = join(tmp, `bo-sea-${process.getuid!()}`);
    mkdirSync(fallback, { recursive: true, mode: 0o777 });
    // Made by someone careless. Others could write it: not used (what they put there
    // could be run; bin/private-folder.cjs); only readable: made private again.
    chmodSync(fallback, 0o777);
    const env = { ...home, XDG_CACHE_HOME: blocker, TMPDIR: tmp };
    const refused = await sh('bo --sandbox accounts list --limit 2', env);
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: `bo: cannot write its files to ${fallback}: others can write to ${fallback}\n` });
    expect(readdirSync(fallback)).toEqual([]);
    chmodSync(fallback, 0o755);
    const run = await sh('bo --sandbox accounts list --limit 2', env);
    expect(run).toMatchObject({ code: 0, stderr: 'showing 2 of 60; pass --all for every record\n' });
    expect(statSync(fallback).mode & 0o777).toBe(0o700);
    const [id, ...others] = readdirSync(fallback);
    expect(others).toEqual([]);
    expect(filesUnder(join(fallback, id!))).toContain('bo.cjs');
  });

  // jq runs as WebAssembly, a file of dist/ like the bundles, so it comes along.
  it('filters JSON with --jq (its WebAssembly module comes with the bundles)', async () => {
    const run = await sh("bo --sandbox accounts list --limit 2 --jq '.[].Uid'", userEnv());
    expect(run).toMatchObject({ code: 0, stdout: 'acc_lvsegbmzg\nacc_107m14dk7l\n' });
  });
});

describe('the single executable against `bo sandbox serve`, with the real keychain', () => {
  let sandbox: LoginSandbox;
  beforeAll(async () => {
    sandbox = await serve();
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it('signs in with a TOTP code, stores the token in gnome-keyring, reads it back, and logs out', async () => {
    const user = await sandbox.user('totp');
    const env = userEnv(keyringEnv());
    const profile = `sea-totp-${process.pid}`;
    const login = await sh(
      `printf '%s\\n' '${user.password}' | bo -p ${profile} --base-url ${sandbox.url} login --username ${user.username} --password-stdin --code-command 'oathtool --totp -b ${user.totpSecret}'`,
      env,
    );
    expect(login.stderr).toContain(`Signed in as ${user.username}`);
    expect(login.code).toBe(0);
    // Stored where another program finds it: the Secret Service, service "bo".
    const stored = JSON.parse(secretToolLookup(profile) ?? 'null');
    expect(stored).toMatchObject({ kind: 'token', username: user.username });

    const status = await sh(`bo -p ${profile} --base-url ${sandbox.url} auth status --verify`, env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('keychain: Secret Service (service "bo")');
    expect(status.stdout).toContain(user.username);
    expect(status.stdout).toMatch(/Signature\tvalid/);

    const logout = await sh(`bo -p ${profile} --base-url ${sandbox.url} logout`, env);
    expect(logout.code).toBe(0);
    expect(logout.stdout + logout.stderr).toContain(`Removed the credential of profile "${profile}" from Secret Service`);
    expect(secretToolLookup(profile)).toBeNull();
    const after = await sh(`bo -p ${profile} --base-url ${sandbox.url} auth status`, env);
    expect(after.stdout).not.toContain(user.username);
  });

  it("loads the keyring library from its private folder, checked by its hash first: a changed file is replaced", async () => {
    const env = userEnv(keyringEnv());
    const profile = `sea-key-${process.pid}`;
    const setKey = () => sh(`printf 'sk_sea\\n' | bo -p ${profile} --base-url ${sandbox.url} auth set-key --key ak_sea --secret-stdin`, env);
    expect((await setKey()).code).toBe(0);
    const { folder } = extracted(env);
    const file = join(folder, 'native', 'keyring.node');
    // The library's own native module, as npm installed it.
    const lib = join(repo, 'node_modules/@napi-rs/keyring-linux-x64-gnu');
    const original = readFileSync(join(lib, readdirSync(lib).find((f) => f.endsWith('.node'))!));
    expect(readFileSync(file).equals(original)).toBe(true);

    // Changed: size and time differ, as every run checks.
    writeFileSync(file, 'not the library');
    expect((await setKey()).code).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);

    // Changed with its size and modification time kept: its change time tells (every run),
    // and the hash before loading would.
    const bytes = Buffer.from(original);
    const at = bytes.length >> 1;
    bytes[at] = bytes[at]! ^ 0xff;
    const reference = join(env.HOME!, 'reference');
    execFileSync('cp', ['--preserve=timestamps', file, reference]);
    writeFileSync(file, bytes);
    execFileSync('touch', ['-r', reference, file]);
    expect(statSync(file).mtimeMs).toBe(statSync(reference).mtimeMs);
    expect((await setKey()).code).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);

    expect(JSON.parse(secretToolLookup(profile) ?? 'null')).toMatchObject({ kind: 'apiKey', key: 'ak_sea', secret: 'sk_sea' });
    expect((await sh(`bo -p ${profile} --base-url ${sandbox.url} logout`, env)).code).toBe(0);
    expect(secretToolLookup(profile)).toBeNull();
  });

  it('enrolls an authenticator from the QR code: the PNG decodes to the secret the code command used', async () => {
    const user = await sandbox.user('enroll');
    const env = userEnv(keyringEnv());
    const profile = `sea-qr-${process.pid}`;
    const png = join(env.HOME!, 'qr.png');
    const seen = join(env.HOME!, 'secret.txt');
    const login = await sh(
      `printf '%s\\n' '${user.password}' | bo -p ${profile} --base-url ${sandbox.url} login --username ${user.username} --password-stdin ` +
        `--enroll totp --qr-png ${png} --recovery-codes-file ${join(env.HOME!, 'codes.txt')} --code-command 'printf %s "$BO_TOTP_SECRET" > ${seen}; oathtool --totp -b "$BO_TOTP_SECRET"'`,
      env,
    );
    expect(login.stderr).toContain(`Signed in as ${user.username}`);
    expect(login.code).toBe(0);
    const uri = execFileSync('zbarimg', ['--raw', '-q', '-Sbinary', png], { encoding: 'utf8' }).trim();
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(uri).searchParams.get('secret')).toBe(readFileSync(seen, 'utf8'));
    expect(JSON.parse(secretToolLookup(profile) ?? 'null')).toMatchObject({ kind: 'token', username: user.username });
    expect((await sh(`bo -p ${profile} --base-url ${sandbox.url} logout`, env)).code).toBe(0);
  });
});

describe('the single executable at a terminal (tmux)', () => {
  const socket = `bo-sea-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const screen = (colours = false) => tmux('capture-pane', '-p', '-J', ...(colours ? ['-e'] : []), '-S', '-', '-t', 'sea');
  async function waitFor(pattern: RegExp | string): Promise<string> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const text = screen();
      if (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const type = (text: string) => {
    tmux('send-keys', '-t', 'sea', '-l', text);
    tmux('send-keys', '-t', 'sea', 'Enter');
  };
  let sandbox: LoginSandbox;
  beforeAll(async () => {
    sandbox = await serve();
  }, 60_000);
  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await sandbox?.close();
  });

  it('asks with its prompts, draws the QR code of an enrollment that zbarimg decodes, and stores the token', async () => {
    const user = await sandbox.user('enroll');
    const env = { ...userEnv(keyringEnv()), TERM: 'xterm-256color' };
    const profile = `sea-tty-${process.pid}`;
    const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
    const command = `env -i ${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} bo -p ${profile} --base-url ${sandbox.url} login; echo EXIT=$?; sleep 600`;
    tmux('new-session', '-d', '-s', 'sea', '-x', '200', '-y', '80', `bash -c ${quote(command)}`);
    await waitFor('Email');
    type(user.username);
    await waitFor('Password');
    type(user.password);
    await waitFor('How do you want to receive sign-in codes?');
    tmux('send-keys', '-t', 'sea', 'Enter'); // the first choice: authenticator app
    const shown = await waitFor(/Code from your authenticator app/);
    const uri = /Setup URI: (otpauth:\S+)/.exec(shown)![1]!;
    expect(decodeWithZbar(join(work, 'pane-qr.png'), pngFromMatrix(matrixFromAnsi(screen(true))))).toBe(uri);
    const secret = /secret by hand: ([A-Z2-7 ]+)/.exec(shown)![1]!.replace(/ /g, '');
    type(execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim());
    const done = await waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=0');
    expect(done).toContain(`Signed in as ${user.username}`);
    expect(JSON.parse(secretToolLookup(profile) ?? 'null')).toMatchObject({ kind: 'token', username: user.username });
  });
});

describe('the archive', () => {
  it('installs as the README says, in a fresh HOME: its SHA-256 checks, bin/bo runs, the man pages man finds, the completion scripts', () => {
    const archive = `${built.replace(/\.exe$/, '')}.tar.xz`;
    expect(existsSync(archive), `${archive} is missing: npm run build:binary writes it`).toBe(true);
    // The README's lines, run as written by bash in the archive's folder with a HOME that
    // holds nothing yet (no ~/.local): they must not assume a folder a fresh machine lacks.
    const readme = readFileSync(join(repo, 'README.md'), 'utf8').split('\n');
    const from = readme.findIndex((l) => l.startsWith('### A single file, without Node'));
    const open = readme.findIndex((l, i) => i > from && l.trim() === '```sh');
    const close = readme.findIndex((l, i) => i > open && l.trim() === '```');
    const script = readme.slice(open + 1, close).join('\n').replaceAll('bo-linux-x64', target);
    const home = join(work, 'fresh-home');
    mkdirSync(home);
    const env = { ...userEnv(), HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const ran = spawnSync('bash', ['-c', `set -euo pipefail\n${script}`], { cwd: dirname(archive), encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe(`${target}.tar.xz: OK\n${version}\n`);
    expect(ran.status).toBe(0);

    const prefix = join(home, '.local');
    const files = readdirSync(prefix, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(prefix, join(e.parentPath, e.name)))
      .sort();
    const man = existsSync(join(repo, 'man')) ? readdirSync(join(repo, 'man')).map((f) => `share/man/man1/${f}`) : [];
    expect(files).toEqual(
      ['bin/bo', 'share/bash-completion/completions/bo', 'share/fish/vendor_completions.d/bo.fish', 'share/zsh/site-functions/_bo', ...man].sort(),
    );
    expect(readFileSync(join(prefix, 'share/bash-completion/completions/bo'), 'utf8')).toBe(readFileSync(join(repo, 'completions/bo.bash'), 'utf8'));
    expect(execFileSync(join(prefix, 'bin/bo'), ['--version'], { encoding: 'utf8', env: userEnv() })).toBe(`${version}\n`);
    if (man.length > 0) {
      for (const page of ['bo', 'bo-accounts-list']) {
        expect(execFileSync('man', ['-M', join(prefix, 'share/man'), '-w', page], { encoding: 'utf8' }).trim()).toBe(join(prefix, `share/man/man1/${page}.1`));
      }
    }
  });
});

// The executable's compile cache and its folder of bundles only in a folder the user
// alone can change (bin/private-folder.cjs). Two real users; needs root.
describe.skipIf(whyNoUsers)(`the single executable and another local user${whyNoUsers ? ` (skipped: ${whyNoUsers})` : ''}`, () => {
  const them = planterAndVictim();
  let bo: string;
  /** Node's name for the victim's folder of a cache: <version>-<arch>-<hash>-<uid>. */
  let victimTag: string;
  /** The executable's build id: its folder of bundles. */
  let buildId: string;
  let runs = 0;

  beforeAll(() => {
    const { work: shared, victim, victimHome } = them;
    bo = join(shared.root, 'bo');
    copyFileSync(built, bo);
    chmodSync(bo, 0o755);
    const probe = join(victimHome, 'probe');
    must(victim.run([bo, '--version'], { NODE_COMPILE_CACHE: probe, TMPDIR: shared.tmp }, shared.root));
    victimTag = readdirSync(probe)[0]!;
    buildId = readdirSync(join(shared.tmp, `bo-sea-${victim.uid}`)).find((name) => /^[0-9a-f]{16}$/.test(name))!;
  }, 60_000);

  /** What the planter leaves in `folder` (every folder made 0777): a file of its own. */
  function plant(folder: string, file: string, text: string): string[] {
    const script = 'umask 000 && mkdir -p "$1" && printf %s "$3" > "$1/$2"';
    must(them.planter.run(['sh', '-c', script, 'plant', folder, file, text], { PATH: '/usr/bin:/bin' }, them.work.root));
    return readdirSync(folder).map((name) => `${name} ${statSync(join(folder, name)).mtimeMs}`);
  }

  function victimRuns(env: Record<string, string>) {
    const data = join(them.victimHome, `data-${runs++}`);
    const base = { PATH: '/usr/bin:/bin', TMPDIR: them.work.tmp, BO_CONFIG_DIR: join(data, 'config'), BO_DATA_DIR: data, ...cacheLogEnv };
    const r = them.victim.run([bo, '--sandbox', 'accounts', 'list', '--limit', '1'], { ...base, ...env }, them.work.root);
    return { ...r, ...splitCacheLog(r.stderr) };
  }

  it("with HOME unset, never opens the victim's compile cache folder the planter made in the shared TMPDIR", () => {
    const planted = join(them.work.tmp, 'node-compile-cache', victimTag);
    const before = plant(planted, '00000000', 'planted');
    const r = victimRuns({});
    expect(r).toMatchObject({ code: 0, stderr: 'showing 1 of 60; pass --all for every record\n' });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.log.filter((line) => line.includes(them.work.tmp))).toEqual([]);
    expect(readdirSync(planted).map((name) => `${name} ${statSync(join(planted, name)).mtimeMs}`)).toEqual(before);
    // Its bundles: a folder of the victim's in the shared TMPDIR, which is root's and sticky.
    const own = statSync(join(them.work.tmp, `bo-sea-${them.victim.uid}`));
    expect([own.uid, own.mode & 0o777]).toEqual([them.victim.uid, 0o700]);
  });

  it('with NODE_COMPILE_CACHE naming a folder the planter can write, reads none of its bundles from there', () => {
    const ncc = join(them.work.tmp, 'ncc');
    plant(join(ncc, victimTag), '00000000', 'planted');
    const r = victimRuns({ NODE_COMPILE_CACHE: ncc });
    expect(r).toMatchObject({ code: 0, stderr: 'showing 1 of 60; pass --all for every record\n' });
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    // Only the executable's main script, which Node compiles before any code of bo's runs
    // (named main.cjs, as build-binary.mjs's sea-config names it).
    expect(cachedFiles(r.log).filter((file) => !/(^|\/)main\.cjs$/.test(file))).toEqual([]);
    expect(r.log).toContain('[compile cache] Disabled by NODE_DISABLE_COMPILE_CACHE.');
  });

  it('never runs bundles from the folder the planter made for the victim in the shared TMPDIR: one line, exit 1', () => {
    const other = join(them.work.root, 'tmp2');
    must(spawnSync('mkdir', ['-m', '1777', other], { encoding: 'utf8' }));
    const folder = join(other, `bo-sea-${them.victim.uid}`);
    plant(join(folder, buildId), 'bo.cjs', 'process.stdout.write("planted\\n");');
    const r = victimRuns({ TMPDIR: other });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: `bo: cannot write its files to ${folder}: ${folder} belongs to another user\n` });
  });

  it('with XDG_CACHE_HOME in a folder others can write, neither the bundles nor the compile cache go there', () => {
    const open = folderOf(them.planter, join(them.work.root, 'open'), 0o777);
    const cache = folderOf(them.victim, join(open, 'cache'), 0o700);
    const r = victimRuns({ HOME: them.victimHome, XDG_CACHE_HOME: cache });
    expect(r).toMatchObject({ code: 0, stderr: 'showing 1 of 60; pass --all for every record\n' });
    const files = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory());
    expect(files).toEqual([]);
    expect(r.log.filter((line) => line.includes(open))).toEqual([]);
  });
});

/** `bo sandbox serve --memory --port 0` run by the executable; its first line is the URL. */
function serve(): Promise<LoginSandbox> {
  return startE2eSandbox(repo, { bo: [join(binDir, 'bo')], env: userEnv() });
}
