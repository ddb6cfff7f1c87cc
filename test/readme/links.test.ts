// The links of the README and of docs/ work where people read them: every `#anchor`
// names a heading of the page it points into (GitHub's slugs), and every local file a
// page links to exists and ships in the npm package, so the installed copy's links work too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (page: string) => readFileSync(join(repo, page), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The targets of inline links `[text](target)`, outside fenced code blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

function headings(markdown: string): Set<string> {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.trim())));
}

/** A link's target as a path from the repository's root, and its anchor. */
function resolve(page: string, target: string): { file: string; anchor?: string } {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? page : normalize(join(dirname(page), path));
  return { file, ...(anchor === undefined ? {} : { anchor }) };
}

describe('links of the README and docs/', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('Changing things: `--dry-run`, batches, confirmations')).toBe('changing-things---dry-run-batches-confirmations');
    expect(slug('A five-minute tour on the sandbox')).toBe('a-five-minute-tour-on-the-sandbox');
  });

  it('the README links every page of docs/ and the CHANGELOG', () => {
    const linked = new Set(linkTargets(read('README.md')).map((t) => resolve('README.md', t).file));
    expect(linked).toContain('CHANGELOG.md');
    for (const page of pages.filter((p) => p.startsWith('docs/') && p !== 'docs/performance-notes.md')) expect(linked, page).toContain(page);
  });

  for (const page of pages) {
    it(`${page}: every #anchor names a heading, every file exists and ships`, () => {
      const shipped = (JSON.parse(read('package.json')) as { files: string[] }).files;
      for (const target of linkTargets(read(page)).filter((t) => !/^[a-z]+:/.test(t))) {
        const { file, anchor } = resolve(page, target);
        expect(existsSync(join(repo, file)), `${page}: ${target}`).toBe(true);
        expect(shipped.some((entry) => file === entry || file.startsWith(`${entry}/`)), `${file} in package.json "files"`).toBe(true);
        if (anchor !== undefined) expect(headings(read(file)), `${page}: ${target}`).toContain(anchor);
      }
    });
  }
});
