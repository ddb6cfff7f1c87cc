// `npm run build:deb`: the Debian package of the single executable, on top of
// build:binary (scripts/build-binary.mjs), for Debian and Ubuntu on amd64:
//
//   dist/bo_<version>_amd64.deb   /usr/bin/bo, the man pages (gzipped) in
//                                 /usr/share/man/man1, the completions where bash, zsh
//                                 and fish look for a system's, /usr/share/doc/bo/
//                                 (copyright: every bundled component's licence, from the
//                                 SBOM; changelog.gz)
//
// Depends: computed by dpkg-shlibdeps from the executable and the keyring library's
// native module it carries (a debian/control stub in a temporary folder). No maintainer
// script. The same bytes for the same commit: every file dated SOURCE_DATE_EPOCH or the
// commit's time (scripts/release-facts.mjs), modes set here, gzip -n, and dpkg-deb
// --root-owner-group, which sorts the entries and reads SOURCE_DATE_EPOCH itself.
//
//   node scripts/build-deb.mjs [--out DIR] [--binary FILE]
//
// DIR: where the package goes (dist/); the executable is built there first with its
// archive and SBOM (build:binary), unless --binary names one already built (its SBOM,
// <name>.cdx.json, beside it).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { boVersion, root, sourceDateEpoch } from './release-facts.mjs';

const argv = process.argv.slice(2);
const arg = (name) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const out = resolve(arg('--out') ?? join(root, 'dist'));
if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('build:deb builds the amd64 package on Linux x64 only');

/** Who answers for the package (Debian's Maintainer field); BO_DEB_MAINTAINER overrides it. */
const MAINTAINER = process.env.BO_DEB_MAINTAINER || 'bo maintainers <bo-maintainers@users.noreply.github.com>';

const run = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r.stdout;
};

let exe = arg('--binary');
if (exe) exe = resolve(exe);
else {
  run(process.execPath, [join(root, 'scripts/build-binary.mjs'), '--out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
  exe = join(out, 'bo-linux-x64');
}
const sbomFile = `${exe}.cdx.json`;
if (!existsSync(exe) || !existsSync(sbomFile)) throw new Error(`${exe} and its SBOM ${sbomFile}: not both there (npm run build:binary makes them)`);
const sbom = JSON.parse(readFileSync(sbomFile, 'utf8'));

const version = boVersion();
const epoch = sourceDateEpoch();
const deb = join(out, `bo_${version}_amd64.deb`);
const work = mkdtempSync(join(tmpdir(), 'bo-deb-'));
try {
  const stage = join(work, 'bo');
  const put = (to, bytes, mode = 0o644) => {
    const file = join(stage, to);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    chmodSync(file, mode);
  };
  mkdirSync(join(stage, 'usr/bin'), { recursive: true });
  copyFileSync(exe, join(stage, 'usr/bin/bo'));
  chmodSync(join(stage, 'usr/bin/bo'), 0o755);
  // gzip -n: no name or time in the header (zlib writes none).
  const gz = (bytes) => gzipSync(bytes, { level: 9 });
  for (const page of readdirSync(join(root, 'man')).filter((f) => f.endsWith('.1')).sort()) {
    put(`usr/share/man/man1/${page}.gz`, gz(readFileSync(join(root, 'man', page))));
  }
  put('usr/share/bash-completion/completions/bo', readFileSync(join(root, 'completions/bo.bash')));
  put('usr/share/zsh/vendor-completions/_bo', readFileSync(join(root, 'completions/_bo')));
  put('usr/share/fish/vendor_completions.d/bo.fish', readFileSync(join(root, 'completions/bo.fish')));
  put('usr/share/doc/bo/copyright', copyright(sbom));
  put('usr/share/doc/bo/changelog.gz', gz(changelog()));
  put('usr/share/lintian/overrides/bo', lintianOverrides());

  // DEBIAN/: control and md5sums, nothing else (no maintainer script).
  const files = filesUnder(stage).map((f) => relative(stage, f)).sort();
  const md5sums = files.map((f) => `${createHash('md5').update(readFileSync(join(stage, f))).digest('hex')}  ${f}\n`).join('');
  const installedKiB = files.reduce((kib, f) => kib + Math.ceil(statSync(join(stage, f)).size / 1024), 0);
  put('DEBIAN/control', control(shlibsDepends(), installedKiB));
  put('DEBIAN/md5sums', md5sums);

  // Every file and folder dated from the commit; folders 0755.
  for (const entry of [stage, ...dirsUnder(stage), ...filesUnder(stage)]) {
    if (statSync(entry).isDirectory()) chmodSync(entry, 0o755);
    utimesSync(entry, epoch, epoch);
  }
  mkdirSync(out, { recursive: true });
  rmSync(deb, { force: true });
  // xz on one thread, as the archive (its output depends on the thread count).
  run('dpkg-deb', ['--root-owner-group', '-Zxz', '-z6', '--threads-max=1', '--build', stage, deb], { env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) } });
  const sum = createHash('sha256').update(readFileSync(deb)).digest('hex');
  console.error(`build:deb: ${relative(root, deb)}: ${(statSync(deb).size / 1024 / 1024).toFixed(1)} MiB, SHA-256 ${sum}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * Depends: what dpkg-shlibdeps finds the executable and the keyring's native module
 * (the one file of the package's that is loaded as code) linked against, with the
 * versions their symbols need.
 */
function shlibsDepends() {
  const stub = join(work, 'shlibs');
  mkdirSync(join(stub, 'debian'), { recursive: true });
  writeFileSync(join(stub, 'debian/control'), 'Source: bo\n\nPackage: bo\nArchitecture: amd64\n');
  const keyring = keyringNative();
  const line = run('dpkg-shlibdeps', ['-O', '--ignore-missing-info', join(root, 'node_modules', keyring.dir, keyring.file), exe], { cwd: stub });
  const m = /^shlibs:Depends=(.*)$/m.exec(line);
  if (!m) throw new Error(`dpkg-shlibdeps printed no Depends:\n${line}`);
  return m[1].trim();
}

/** The keyring library's native module for linux-x64 (glibc), as build-binary.mjs ships it. */
function keyringNative() {
  const dir = '@napi-rs/keyring-linux-x64-gnu';
  const file = readdirSync(join(root, 'node_modules', dir)).find((f) => f.endsWith('.node'));
  if (!file) throw new Error(`no native module in node_modules/${dir} (npm ci installs it)`);
  return { dir, file };
}

function control(depends, installedKiB) {
  return [
    'Package: bo',
    `Version: ${version}`,
    'Architecture: amd64',
    `Maintainer: ${MAINTAINER}`,
    `Installed-Size: ${installedKiB}`,
    `Depends: ${depends}`,
    'Section: admin',
    'Priority: optional',
    'Description: command-line admin for a subscription back office',
    ' bo manages a subscription business\'s back office from the terminal:',
    ' accounts, subscriptions, add-ons, coupons, lists and people, with plans',
    ' that preview a change before applying it, a history of what was done, and',
    ' a stateful sandbox of the API to try everything without touching real data.',
    ' .',
    ' This package holds bo as one executable with the Node.js runtime and jq',
    ' inside (no Node needed), its man pages and its bash, zsh and fish',
    ' completions.',
    '',
  ].join('\n');
}

/** Debian's changelog of a native package: one entry for this version, dated from the commit. */
function changelog() {
  const date = new Date(epoch * 1000).toUTCString().replace(/GMT$/, '+0000').replace(/^(\w+), (\d) /, '$1, 0$2 ');
  return `bo (${version}) unstable; urgency=medium\n\n  * Release ${version}: CHANGELOG.md in bo's repository says what changed.\n\n -- ${MAINTAINER}  ${date}\n`;
}

/**
 * The copyright file: bo, then every component the SBOM names with its version and
 * licence, and the licence's text where the package ships one (Apache-2.0 points at
 * Debian's common copy instead).
 */
function copyright(bom) {
  const lines = [
    'Upstream-Name: bo',
    '',
    '/usr/bin/bo is one executable holding bo, the Node.js runtime, jq (as',
    'WebAssembly), the npm packages bo bundles and the native module of its',
    'keyring library. Each is listed below with its version and licence; the',
    `SBOM of this build (bo-linux-x64.cdx.json, CycloneDX) lists them with hashes.`,
    '',
    `bo ${version}`,
    ' Licence: as stated by the publisher of bo (its repository holds no licence file).',
    '',
  ];
  for (const c of bom.components) {
    const licence = (c.licenses ?? []).map((l) => l.license?.id ?? l.license?.name ?? l.expression).join(' AND ') || 'not stated';
    lines.push(`${c.name} ${c.version}`, ` License: ${licence}`);
    if (c.description) lines.push(` Comment: ${c.description}`);
    if (licence === 'Apache-2.0') lines.push(' The full text of the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0.');
    else {
      const text = licenceText(c);
      if (text) lines.push(...text.trimEnd().split('\n').map((l) => (l.trim() ? ` ${l.trimEnd()}` : ' .')));
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A component's own licence file: an npm package's LICENSE, Node's, jq-wasm's for jq. */
function licenceText(c) {
  const dirs = [];
  if (c.purl?.startsWith('pkg:npm/node-')) dirs.push(join(root, `node_modules/.cache/bo-binary/${c.purl.slice('pkg:npm/'.length).replace('@', '-')}/package`));
  else if (c.name === 'jq') return undefined;
  else dirs.push(join(root, 'node_modules', c.name));
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    if (!file) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    if (c.name !== 'node') return text;
    // Node's own notice; the libraries it bundles (V8, OpenSSL, libuv, ICU …) are
    // named with their licences in its LICENSE file, whose full Apache and GPL texts
    // Debian wants referred to, not copied.
    const own = text.slice(0, text.indexOf('maintained libraries.') + 'maintained libraries.'.length);
    return `${own}\n\nThe externally maintained libraries Node.js bundles are under their own licences, each named with its\ntext in Node.js's LICENSE file: https://github.com/nodejs/node/blob/v${c.version}/LICENSE\n(Apache-2.0: /usr/share/common-licenses/Apache-2.0).\n`;
  }
  return undefined;
}

/**
 * Tags lintian raises that this package cannot help: the executable is Node's own
 * binary with bo's files injected, so it carries what Node links statically (zlib,
 * with OpenSSL, ICU and others) and Node's build flags.
 */
function lintianOverrides() {
  return [
    '# /usr/bin/bo is the Node.js runtime (its official build) with bo injected: a single executable application.',
    '# Node links its own zlib statically, and its official Linux build is not a position-independent executable.',
    'bo: embedded-library zlib [usr/bin/bo]',
    'bo: hardening-no-pie [usr/bin/bo]',
    '',
  ].join('\n');
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

function dirsUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...dirsUnder(join(dir, e.name))] : []));
}
