// `npm run build:binary`: `bo` as one executable file for this machine's system and
// processor (Node's single executable applications), and the archive handed to an admin
// without Node:
//
//   dist/bo-linux-x64                 the executable (bo-darwin-arm64, bo-win-x64.exe …)
//   dist/bo-linux-x64.tar.xz          bin/bo, share/man/man1/*.1 (man/), the completions
//   dist/bo-linux-x64.tar.xz.sha256   its SHA-256, as `sha256sum -c` reads it
//   dist/bo-linux-x64.cdx.json        its SBOM, CycloneDX 1.5 (scripts/sbom.mjs)
//
// The base is the Node release pinned in scripts/sea-node-version, from the npm registry
// (the package `node@<version>` installs its binary from `node-<os>-<arch>`; that
// package's tarball is fetched here with `npm pack` and kept in
// node_modules/.cache/bo-binary/). The bundles are built once more for the executable,
// by that Node (`scripts/build.mjs --binary`: everything CommonJS, no node_modules; the
// built-ins' names it records are that Node's, whatever Node runs this) and every file of
// that build becomes an asset under its path relative to dist/, and so does the keyring
// library's native module (`native/keyring.node`); bin/bo.js, the executable's main
// script, writes them out once per build into the user's cache folder (bin/sea.cjs) and
// requires them from there. The blob is made by that Node 24 itself and
// injected with postject, after stripping the debug symbols (Linux) or the signature
// (macOS, Windows), as Node's documentation says. Linux x64 is the tested target.
//
// Two builds of one commit give the same bytes (test/package/reproducible.test.ts): the
// archive's entries are sorted, owned by root, dated SOURCE_DATE_EPOCH or the commit's
// time (scripts/release-facts.mjs), and xz runs on one thread.
//
//   node scripts/build-binary.mjs [--out DIR] [--no-archive]
//
// DIR: where the files go (dist/); --no-archive: the executable only (the archive's xz
// compression is most of the build's time).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { seaNodeVersion, sourceDateEpoch } from './release-facts.mjs';
import { makeSbom, sbomText } from './sbom.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const outAt = argv.indexOf('--out');
const out = resolve(outAt >= 0 ? argv[outAt + 1] : join(root, 'dist'));
/** The Node release the executable embeds, and its major. */
const NODE_VERSION = seaNodeVersion();
const NODE_MAJOR = Number(NODE_VERSION.split('.')[0]);
/** Node's SEA fuse, the string postject flips (Node's documentation). */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const os = process.platform === 'win32' ? 'win' : process.platform;
const arch = process.arch;
const target = `bo-${os}-${arch}`;
const exe = join(out, process.platform === 'win32' ? `${target}.exe` : target);
const cache = join(root, 'node_modules/.cache/bo-binary');
const work = mkdtempSync(join(tmpdir(), 'bo-binary-'));
const started = Date.now();
const step = (what) => console.error(`build:binary ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);

const run = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' && cmd === 'npm', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r.stdout;
};

try {
  const { node, integrity } = fetchNode();
  step(`Node ${run(node, ['--version']).trim()} at ${relative(root, node)}`);

  // The bundles for the executable, and every file of them as an asset.
  const bundles = join(work, 'dist');
  const metafile = join(work, 'metafile.json');
  run(node, [join(root, 'scripts/build.mjs'), '--binary', bundles, '--metafile', metafile], { cwd: root });
  const assets = Object.fromEntries(filesUnder(bundles).map((file) => [relative(bundles, file).replaceAll('\\', '/'), file]));
  assets['native/keyring.node'] = keyringNative();
  // files.json: every file the executable writes out (bin/sea.cjs) and its SHA-256;
  // build-id: the folder they go to, named after that list.
  const files = Object.fromEntries(Object.entries(assets).map(([key, file]) => [key, createHash('sha256').update(readFileSync(file)).digest('hex')]));
  writeFileSync(join(work, 'files.json'), JSON.stringify(files));
  writeFileSync(join(work, 'build-id'), createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 16));
  assets['files.json'] = join(work, 'files.json');
  assets['build-id'] = join(work, 'build-id');
  step(`${Object.keys(assets).length} assets: ${Object.keys(assets).join(', ')}`);

  // The main script: bin/bo.js with bin/sea.cjs, its one file that only an executable
  // loads, bin/private-folder.cjs (the folder check both use) and bin/fast-paths.cjs
  // bundled in; everything else it names stays a run-time require().
  const main = join(work, 'main.cjs');
  const inBin = ['./sea.cjs', './private-folder.cjs', './fast-paths.cjs'];
  const mainBuild = await build({
    metafile: true,
    entryPoints: [join(root, 'bin/bo.js')],
    outfile: main,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: `node${NODE_MAJOR}`,
    logLevel: 'warning',
    plugins: [{ name: 'sea-main', setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'entry-point' || inBin.includes(a.path) ? undefined : { path: a.path, external: true })) }],
  });

  const blob = join(work, 'sea.blob');
  const config = {
    // Relative to the folder Node runs in (work): the blob records this path, and a
    // temporary folder's name would make each build's bytes differ.
    main: 'main.cjs',
    output: 'sea.blob',
    disableExperimentalSEAWarning: true,
    // Measured (README, "Single-file binary"): no faster with the main script's code
    // cache, which covers bin/bo.js only; no start-up snapshot either, even one warmed by
    // running common commands while it is built (docs/performance.md, "The single
    // executable against gh, and a warmed startup snapshot"): restoring it costs every
    // run more than the compiling it saves.
    useCodeCache: false,
    useSnapshot: false,
    assets,
  };
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
  run(node, ['--experimental-sea-config', join(work, 'sea-config.json')], { cwd: work });

  mkdirSync(out, { recursive: true });
  rmSync(exe, { force: true });
  copyFileSync(node, exe);
  chmodSync(exe, 0o755);
  if (process.platform === 'linux') run('strip', [exe]);
  if (process.platform === 'darwin') run('codesign', ['--remove-signature', exe]);
  if (process.platform === 'win32') spawnSync('signtool', ['remove', '/s', exe]); // optional, as Node's documentation says
  const postject = join(root, 'node_modules/postject/dist/cli.js');
  run(process.execPath, [postject, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE, ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : [])]);
  if (process.platform === 'darwin') run('codesign', ['--sign', '-', exe]);
  const version = run(exe, ['--version']).trim();
  step(`${relative(root, exe)}: bo ${version}, ${mib(exe)} MiB`);

  // The SBOM: what the bundles (and the main script) hold, jq, Node, the native module.
  const meta = JSON.parse(readFileSync(metafile, 'utf8'));
  Object.assign(meta.inputs, mainBuild.metafile.inputs);
  const sbom = join(out, `${target}.cdx.json`);
  writeFileSync(sbom, sbomText(makeSbom({ metafile: meta, jqWasm: join(bundles, 'lazy/jq.wasm'), keyring: assets['native/keyring.node'], nodeIntegrity: integrity, target: `${os}-${arch}` })));
  step(`${relative(root, sbom)}: ${JSON.parse(readFileSync(sbom, 'utf8')).components.length} components`);

  if (!argv.includes('--no-archive')) {
    const archive = `${exe.replace(/\.exe$/, '')}.tar.xz`;
    packArchive(archive);
    const sum = createHash('sha256').update(readFileSync(archive)).digest('hex');
    writeFileSync(`${archive}.sha256`, `${sum}  ${target}.tar.xz\n`);
    step(`${relative(root, archive)}: ${mib(archive)} MiB, SHA-256 ${sum}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The Node binary of `node-<os>-<arch>@<pinned version>` (what `npm install node@<version>`
 * installs), from the npm registry through npm's own cache, and the `sha512-…` integrity
 * of its tarball.
 */
function fetchNode() {
  const prefix = process.platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node';
  const pkg = `${prefix}-${os}-${arch}`;
  mkdirSync(cache, { recursive: true });
  const packed = JSON.parse(run('npm', ['pack', `${pkg}@${NODE_VERSION}`, '--json', '--prefer-offline', '--pack-destination', cache], { cwd: cache }))[0];
  const dir = join(cache, `${pkg}-${packed.version}`);
  const manifest = join(dir, 'package/package.json');
  if (!existsSync(manifest)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', join(cache, packed.filename), '-C', dir]);
  }
  rmSync(join(cache, packed.filename), { force: true });
  const bin = JSON.parse(readFileSync(manifest, 'utf8')).bin?.node ?? (process.platform === 'win32' ? 'node.exe' : 'bin/node');
  return { node: join(dir, 'package', bin), integrity: packed.integrity };
}

/** The keyring library's native module for this system (its platform package). */
function keyringNative() {
  const lib = JSON.parse(readFileSync(join(root, 'node_modules/@napi-rs/keyring/package.json'), 'utf8'));
  // On Linux the glibc build (the executable needs glibc), on Windows the MSVC one.
  const wanted = [`${process.platform}-${arch}-gnu`, `${process.platform}-${arch}-msvc`, `${process.platform}-${arch}`];
  for (const suffix of wanted) {
    const name = Object.keys(lib.optionalDependencies ?? {}).find((n) => n.endsWith(`/keyring-${suffix}`));
    const dir = name && join(root, 'node_modules', name);
    const file = dir && existsSync(dir) && readdirSync(dir).find((f) => f.endsWith('.node'));
    if (file) return join(dir, file);
  }
  throw new Error(`no native module of @napi-rs/keyring for ${process.platform}-${arch} in node_modules (npm ci installs it)`);
}

/**
 * The archive: bin/bo, the man pages under share/man/man1 (when man/ is built), the
 * completion scripts where bash-completion, zsh and fish look under a prefix; one
 * folder, so `tar -xJf … --strip-components=1 -C ~/.local` installs it.
 */
function packArchive(archive) {
  const stage = join(work, target);
  const put = (from, to) => {
    mkdirSync(join(stage, to, '..'), { recursive: true });
    copyFileSync(from, join(stage, to));
  };
  put(exe, process.platform === 'win32' ? 'bin/bo.exe' : 'bin/bo');
  chmodSync(join(stage, process.platform === 'win32' ? 'bin/bo.exe' : 'bin/bo'), 0o755);
  const man = join(root, 'man');
  if (existsSync(man)) {
    mkdirSync(join(stage, 'share/man'), { recursive: true });
    cpSync(man, join(stage, 'share/man/man1'), { recursive: true });
  }
  put(join(root, 'completions/bo.bash'), 'share/bash-completion/completions/bo');
  put(join(root, 'completions/_bo'), 'share/zsh/site-functions/_bo');
  put(join(root, 'completions/bo.fish'), 'share/fish/vendor_completions.d/bo.fish');
  rmSync(archive, { force: true });
  // GNU tar (Linux): the same bytes for the same files: sorted, owned by root, modes
  // without the umask's say, dated from the commit; xz on one thread (its output
  // depends on the thread count).
  const gnu = process.platform === 'linux'
    ? ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mode=u=rwX,go=rX', `--mtime=@${sourceDateEpoch()}`, '--format=gnu']
    : [];
  run('tar', ['-cJf', archive, ...gnu, '-C', work, target], { env: { ...process.env, XZ_OPT: '-6 -T1' } });
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

function mib(file) {
  return (statSync(file).size / 1024 / 1024).toFixed(1);
}
