// Writes man/bo.1 and one page per command (man/bo-accounts-list.1, …) from the command
// tree (src/help/man.ts), removes pages of commands that are gone, and keeps
// package.json's "man" list in step, so `npm install -g` installs every page.
// test/help/man-pages.unit.test.ts fails when the committed pages are stale.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFromSource, root } from './from-source.mjs';

const { pages } = await importFromSource(
  "import { buildProgram } from './src/program.ts';\n" +
    "import { loadCommands } from './src/commands/index.ts';\n" +
    "import { manPages } from './src/help/man.ts';\n" +
    "import { VERSION } from './src/version.ts';\n" +
    'export const pages = manPages(buildProgram(await loadCommands(), async () => {}), VERSION);\n',
);

const dir = join(root, 'man');
mkdirSync(dir, { recursive: true });
for (const name of readdirSync(dir)) if (name.endsWith('.1') && !pages.has(name)) rmSync(join(dir, name));
for (const [name, page] of pages) {
  const file = join(dir, name);
  let old = null;
  try {
    old = readFileSync(file, 'utf8');
  } catch {}
  if (old !== page) writeFileSync(file, page);
}

const pkgFile = join(root, 'package.json');
const pkgText = readFileSync(pkgFile, 'utf8');
const pkg = JSON.parse(pkgText);
pkg.man = [...pages.keys()].map((name) => `./man/${name}`);
const next = `${JSON.stringify(pkg, null, 2)}\n`;
if (next !== pkgText) writeFileSync(pkgFile, next);
