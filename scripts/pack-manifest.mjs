// The package.json that `npm pack` and `npm publish` put in the tarball carries no
// install-time script: npm runs `prepack` (this, with `strip`) before it reads the
// package's files and `postpack` (this, with `restore`) after the tarball is made (npm's
// documented lifecycle, the way pinst keeps husky's postinstall out of packages).
// `prepare` stays in the repository's package.json, so `npm ci` in a clone builds dist/;
// a tarball has dist/ built already and nothing for npm to warn about on install.
//
// Failure modes: a pack that dies between the two (Ctrl-C, a tar error) leaves the
// stripped package.json and its copy `.package.json.pack`; the next `strip` or `restore`
// puts the copy back first. `npm pack --ignore-scripts` runs neither, so that tarball
// keeps `prepare` (and npm warns again). Packing never builds: dist/ must be there (npm
// ci, or node scripts/build.mjs); without dist/bo.cjs, `strip` stops the pack.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = join(root, 'package.json');
const saved = join(root, '.package.json.pack');
const INSTALL_TIME = ['preinstall', 'install', 'postinstall', 'prepare'];

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

const mode = process.argv[2];
if (mode === 'restore') {
  restore();
} else if (mode === 'strip') {
  restore();
  if (!existsSync(join(root, 'dist', 'bo.cjs'))) {
    console.error('dist/bo.cjs is missing: build it first (npm ci, or node scripts/build.mjs)');
    process.exit(1);
  }
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  for (const name of INSTALL_TIME) delete pkg.scripts?.[name];
  writeFileSync(saved, text);
  // Written whole and renamed, so a reader never sees half a package.json.
  const next = join(root, '.package.json.next');
  writeFileSync(next, `${JSON.stringify(pkg, null, 2)}\n`);
  renameSync(next, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
