// docs/architecture.md describes the house as it is: a room (a `### \`src/…\`` heading)
// for every folder and top-level file of src/, none for what is gone, and no file named
// on the page that does not exist: a path of src/, test/, scripts/ or bin/ must exist, and
// a bare file name in a room must be a file of that room's folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = 'docs/architecture.md';
const page = readFileSync(join(repo, PAGE), 'utf8');

/** The folders (with a trailing /) and .ts files directly in src/. */
const srcEntries = readdirSync(join(repo, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
  .map((e) => `src/${e.name}${e.isDirectory() ? '/' : ''}`)
  .sort();

/** Each room: its heading's path and its text up to the next heading. */
export function rooms(text: string): { name: string; body: string }[] {
  const parts = text.split(/^(?=#{1,3} )/m);
  return parts.flatMap((part) => {
    const m = /^### `(src\/[^`]*)`\s*\n([\s\S]*)$/.exec(part);
    return m ? [{ name: m[1]!, body: m[2]! }] : [];
  });
}

/** Every file name the text names: paths (src/a/b.ts) and bare names (b.ts), placeholders (<verb>) left out. */
export function namedFiles(text: string): string[] {
  return [...text.matchAll(/(?<![\w./<>-])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|mjs|cjs|js))(?![\w/-])/g)].map((m) => m[1]!).filter((f) => !f.includes('<'));
}

/** Every src/ path the text names, files and folders. */
function namedSrcPaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])src\/[\w./-]*/g)].map((m) => m[0].replace(/[.,;:]+$/, '')).filter((p) => p !== 'src/');
}

/** The files under a folder of the repository, as paths relative to it. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(repo, folder), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(join(repo, folder).length + 1));
}

const ROOTS = ['src/', 'test/', 'scripts/', 'bin/'];

describe(PAGE, () => {
  it('reads rooms and file names as meant', () => {
    const text = '# A\n\n### `src/api/`\n\n`http.ts` and pages.ts, `src/x/<verb>.ts`, dist/bo.cjs.\n\n## B\n\nbin/bo.js';
    expect(rooms(text)).toEqual([{ name: 'src/api/', body: '`http.ts` and pages.ts, `src/x/<verb>.ts`, dist/bo.cjs.\n\n' }]);
    expect(namedFiles(text)).toEqual(['http.ts', 'pages.ts', 'dist/bo.cjs', 'bin/bo.js']);
  });

  it('has a room for every folder and top-level file of src/ (a new one: add a `### `src/…`` room to docs/architecture.md)', () => {
    const named = new Set(rooms(page).map((r) => r.name));
    expect(srcEntries.length).toBeGreaterThan(20);
    expect(srcEntries.filter((entry) => !named.has(entry))).toEqual([]);
  });

  it('has no room for what src/ does not hold, and one room each', () => {
    const names = rooms(page).map((r) => r.name);
    expect(names.filter((name) => !srcEntries.includes(name))).toEqual([]);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('names no path of src/, test/, scripts/ or bin/ that does not exist', () => {
    const paths = [...namedSrcPaths(page), ...namedFiles(page).filter((f) => ROOTS.some((root) => f.startsWith(root)))];
    expect(paths.length).toBeGreaterThan(30);
    expect([...new Set(paths)].filter((p) => !p.includes('<') && !existsSync(join(repo, p)))).toEqual([]);
  });

  it("names in each folder's room only files of that folder (a bare name in a file's room: a file of src/)", () => {
    const missing = rooms(page).flatMap(({ name, body }) => {
      const folder = name.endsWith('/') ? name.slice(0, -1) : 'src';
      const here = filesUnder(folder);
      return namedFiles(body)
        .filter((f) => !ROOTS.some((root) => f.startsWith(root)) && !f.startsWith('dist/'))
        .filter((f) => !here.some((file) => file === f || file.endsWith(`/${f}`)))
        .map((f) => `${name}: ${f}`);
    });
    expect(missing).toEqual([]);
  });

  it('names, outside the rooms, only bare file names that some file of src/, bin/ or scripts/ has', () => {
    const outside = page.split(/^(?=#{1,3} )/m).filter((part) => !/^### `src\//.test(part)).join('\n');
    const known = ['src', 'bin', 'scripts'].flatMap((folder) => filesUnder(folder).map((f) => f.split('/').at(-1)!));
    const bare = namedFiles(outside).filter((f) => !f.includes('/'));
    expect(bare.filter((f) => !known.includes(f))).toEqual([]);
  });
});
