// The repository stands alone: no build step, script or test reads a file outside it (a
// clone copied to an empty folder builds and passes). What a test can see of that: no
// relative URL, path literal or join()/resolve() of '..' steps in scripts/, test/, bin/
// or .ci/ climbs above the clone, no absolute path leads into a home or work folder, and
// none names the design folders that sit beside it on a developer's machine.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs|cjs|js|sh|zsh)$/.test(e.name) || (e.isFile() && e.name === 'run'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

// The folders of the service's reference and design, beside a developer's clone (written in
// two parts so that this file does not name them itself).
const BESIDE = new RegExp(`\\b${'shared'}/(api|design)\\b`);

const sources = ['scripts', 'test', 'bin', '.ci'].flatMap(files).filter((f) => !f.includes('node_modules'));

/** First folders of absolute paths where a developer's files, not the system's, live. */
const OUTSIDE_ROOTS = ['work', 'home', 'root', 'Users', 'mnt', 'srv', 'opt', 'media', 'shared'];
/** Expressions that name the file's own folder, or the clone's root. */
const HERE = /^(?:import\.meta\.dirname|__dirname)$/;
const ROOT = /^(?:root|repo|repoRoot|repository)$/;

/** What in a file's text reads outside the clone: one line each, `file: what`. */
export function outsideReads(file: string, text: string): string[] {
  const found: string[] = [];
  const folder = dirname(join(root, file));
  const leaves = (from: string, steps: string) => relative(root, resolve(from, steps)).startsWith('..');
  // new URL('../..', import.meta.url), '../../shared/x' and the like: resolved from the file's folder.
  for (const m of text.matchAll(/(['"`])(\.\.(?:\/\.\.)*(?:\/[^'"`\s]*)?)\1/g)) {
    if (leaves(folder, m[2]!)) found.push(`${file}: ${m[2]}`);
  }
  // join(import.meta.dirname, '..', '..', 'x') or join(root, '..', 'shared'): the steps counted.
  for (const m of text.matchAll(/\b(?:join|resolve)\(\s*([\w.$]+)\s*((?:,\s*(['"])[^'"]*\3\s*)+)\)/g)) {
    const base = m[1]!;
    const parts = [...m[2]!.matchAll(/(['"])([^'"]*)\1/g)].map((p) => p[2]!);
    if (!parts.includes('..')) continue;
    const from = HERE.test(base) ? folder : ROOT.test(base) ? root : undefined;
    if (from !== undefined && leaves(from, parts.join('/'))) found.push(`${file}: ${m[0]}`);
  }
  // Absolute paths into a home or work folder ('/work/…', '/home/…'): another machine's files.
  for (const m of text.matchAll(/(['"`])(\/([\w.-]+)(?:\/[^'"`\s]*)?)\1/g)) {
    if (OUTSIDE_ROOTS.includes(m[3]!)) found.push(`${file}: ${m[2]}`);
  }
  if (BESIDE.test(text)) found.push(`${file}: names a folder beside the clone`);
  return found;
}

describe('the repository stands alone', () => {
  it('has files to check', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain('scripts/resource-fields.mjs');
  });

  it('finds every way out of the clone it looks for', () => {
    const found = (file: string, text: string) => outsideReads(file, text).map((line) => line.slice(file.length + 2));
    expect(found('test/x.test.ts', "new URL('../..', import.meta.url)")).toEqual(['../..']);
    expect(found('test/a/x.test.ts', "new URL('../..', import.meta.url)")).toEqual([]);
    expect(found('scripts/x.mjs', "readFileSync('../../" + "shared/api/SERVICE-API.md')")).toEqual(['../../' + 'shared/api/SERVICE-API.md', 'names a folder beside the clone']);
    expect(found('test/a/x.test.ts', "join(import.meta.dirname, '..', '..', '..', 'ref.md')")).toEqual(["join(import.meta.dirname, '..', '..', '..', 'ref.md')"]);
    expect(found('test/a/x.test.ts', "join(import.meta.dirname, '..', '..')")).toEqual([]);
    expect(found('test/x.test.ts', "resolve(root, '..', 'other')")).toEqual(["resolve(root, '..', 'other')"]);
    expect(found('test/x.test.ts', "join(tmp, '..', '..', 'x')")).toEqual([]);
    expect(found('test/x.test.ts', "readFileSync('/work/notes.md'); '/home/me/x'; '/crm/accounts'; '/dev/null'")).toEqual(['/work/notes.md', '/home/me/x']);
  });

  it('no path literal in scripts, tests, bin or CI leads outside the clone', () => {
    // This file is left out: its examples of the ways out are data, read by nothing.
    const outside = sources.filter((file) => file !== 'test/stands-alone.unit.test.ts').flatMap((file) => outsideReads(file, readFileSync(join(root, file), 'utf8')));
    expect(outside).toEqual([]);
  });
});
