// The SBOM of the single executable: a CycloneDX 1.5 JSON document naming every component
// that ends up in it (scripts/build-binary.mjs writes it beside the archive, and
// scripts/build-deb.mjs names each licence in the package's copyright file from it):
//   - each npm package whose files the bundles hold, from esbuild's own record of its
//     inputs (the metafile scripts/build.mjs --metafile writes), not from package.json:
//     its name, version and licence from the package's own package.json, and the SHA-512
//     of its npm tarball from package-lock.json (what `npm ci` checked);
//   - jq 1.8.2, shipped as WebAssembly (jq-wasm's jq.wasm): its licence and SHA-256;
//   - the Node runtime the executable embeds (scripts/sea-node-version), with the SHA-512
//     of the npm package it comes from;
//   - the keyring library's native module, shipped as it is: its SHA-256.
// Its serial number and time come from the commit (scripts/release-facts.mjs), so two
// builds of one commit write the same bytes.
//
//   node scripts/sbom.mjs --metafile FILE --jq-wasm FILE --keyring FILE [--node-integrity sha512-…] --out FILE
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { boVersion, commitId, root, seaNodeVersion, sourceDateEpoch } from './release-facts.mjs';

/** jq's release inside jq-wasm (its version reads 3.0.0-jq-1.8.2) and jq's own licence (its COPYING). */
const JQ = { version: '1.8.2', license: 'MIT' };

/**
 * The folder of each npm package among esbuild's inputs, relative to the project root
 * (node_modules/commander, node_modules/@inquirer/core, node_modules/a/node_modules/b),
 * sorted.
 */
export function packageDirsOf(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const path = input.replaceAll('\\', '/');
    const at = path.lastIndexOf('node_modules/');
    if (at < 0 || path.includes(':')) continue;
    const rest = path.slice(at + 'node_modules/'.length).split('/');
    const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    dirs.add(`${path.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

const purlOf = (name, version) => `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;

/** CycloneDX licences from a package.json `license` field (an SPDX id or expression). */
function licensesOf(license) {
  if (typeof license !== 'string' || !license) return undefined;
  return /^[A-Za-z0-9.+-]+$/.test(license) ? [{ license: { id: license } }] : [{ expression: license }];
}

/** package-lock's `sha512-<base64>` as a CycloneDX hash. */
function integrityHash(integrity) {
  const m = /^sha512-([A-Za-z0-9+/=]+)$/.exec(integrity ?? '');
  return m ? [{ alg: 'SHA-512', content: Buffer.from(m[1], 'base64').toString('hex') }] : undefined;
}

const sha256 = (file) => [{ alg: 'SHA-256', content: createHash('sha256').update(readFileSync(file)).digest('hex') }];

/** A UUID (RFC 9562 version 8: its bits are ours) from a digest of `text`. */
function uuidOf(text) {
  const h = createHash('sha256').update(text).digest('hex').slice(0, 32).split('');
  h[12] = '8';
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * The SBOM as an object. `metafile`: esbuild's merged metafile; `jqWasm`, `keyring`:
 * the shipped files; `nodeIntegrity`: the `sha512-…` of the Node package's tarball.
 */
export function makeSbom({ metafile, jqWasm, keyring, nodeIntegrity, target = `${process.platform}-${process.arch}` }) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const components = packageDirsOf(metafile).map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    return {
      type: 'library',
      'bom-ref': purlOf(pkg.name, pkg.version),
      name: pkg.name,
      version: pkg.version,
      licenses: licensesOf(pkg.license),
      hashes: integrityHash(lock[dir]?.integrity),
      purl: purlOf(pkg.name, pkg.version),
    };
  });
  components.push({
    type: 'application',
    'bom-ref': `pkg:github/jqlang/jq@jq-${JQ.version}`,
    name: 'jq',
    version: JQ.version,
    description: 'jq compiled to WebAssembly (jq.wasm of the npm package jq-wasm)',
    licenses: licensesOf(JQ.license),
    hashes: sha256(jqWasm),
    purl: `pkg:github/jqlang/jq@jq-${JQ.version}`,
  });
  const nodeVersion = seaNodeVersion();
  const nodePkg = `node-${target}`;
  components.push({
    type: 'platform',
    'bom-ref': purlOf(nodePkg, nodeVersion),
    name: 'node',
    version: nodeVersion,
    description: `the Node.js runtime the executable embeds (npm package ${nodePkg}, stripped)`,
    licenses: licensesOf('MIT'),
    hashes: integrityHash(nodeIntegrity),
    purl: purlOf(nodePkg, nodeVersion),
  });
  const keyringDir = resolve(keyring, '..');
  const keyringPkg = JSON.parse(readFileSync(join(keyringDir, 'package.json'), 'utf8'));
  components.push({
    type: 'library',
    'bom-ref': purlOf(keyringPkg.name, keyringPkg.version),
    name: keyringPkg.name,
    version: keyringPkg.version,
    description: 'native module of @napi-rs/keyring, shipped as it is',
    licenses: licensesOf(keyringPkg.license),
    hashes: sha256(keyring),
    purl: purlOf(keyringPkg.name, keyringPkg.version),
  });
  // Drop undefined fields: a component without a known hash or licence has none.
  const clean = (c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
  const version = boVersion();
  const commit = commitId();
  const epoch = sourceDateEpoch();
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${uuidOf(`bo ${version} ${target} ${commit} ${epoch}`)}`,
    version: 1,
    metadata: {
      timestamp: new Date(epoch * 1000).toISOString().replace(/\.000Z$/, 'Z'),
      tools: { components: [{ type: 'application', name: 'scripts/sbom.mjs', version }] },
      component: clean({
        type: 'application',
        'bom-ref': purlOf('bo', version),
        name: 'bo',
        version,
        description: `the single executable bo-${target}`,
        purl: purlOf('bo', version),
        properties: commit ? [{ name: 'bo:commit', value: commit }] : undefined,
      }),
    },
    components: components.map(clean),
  };
}

/** The SBOM as the bytes written: two-space JSON with a final newline. */
export const sbomText = (sbom) => `${JSON.stringify(sbom, null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name) => {
    const at = process.argv.indexOf(name);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const metafile = arg('--metafile');
  const out = arg('--out');
  if (!metafile || !out || !arg('--jq-wasm') || !arg('--keyring')) {
    throw new Error('usage: node scripts/sbom.mjs --metafile FILE --jq-wasm FILE --keyring FILE [--node-integrity sha512-…] --out FILE');
  }
  for (const file of [metafile, arg('--jq-wasm'), arg('--keyring')]) if (!existsSync(file)) throw new Error(`${file}: no such file`);
  const sbom = makeSbom({ metafile: JSON.parse(readFileSync(metafile, 'utf8')), jqWasm: arg('--jq-wasm'), keyring: arg('--keyring'), nodeIntegrity: arg('--node-integrity') });
  writeFileSync(out, sbomText(sbom));
}
