// The README's links work where people read it: every `#anchor` names one of its
// headings (GitHub's slugs), and every local file it links to exists and ships in the
// npm package, so the installed copy's links work too.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The targets of inline links `[text](target)`, outside fenced code blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

function headings(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.trim())));
}

describe('README links', () => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const targets = linkTargets(readme);

  it('slugs headings as GitHub does', () => {
    expect(slug('Changing things: `--dry-run`, batches, confirmations')).toBe('changing-things---dry-run-batches-confirmations');
    expect(slug('A five-minute tour on the sandbox')).toBe('a-five-minute-tour-on-the-sandbox');
  });

  it('every #anchor names a heading', () => {
    const anchors = targets.filter((t) => t.startsWith('#')).map((t) => t.slice(1));
    expect(anchors.length).toBeGreaterThan(5);
    const known = headings(readme);
    expect(anchors.filter((a) => !known.has(a))).toEqual([]);
  });

  it('every local file it links to exists and is in the package', () => {
    const files = targets.filter((t) => !t.startsWith('#') && !/^[a-z]+:/.test(t)).map((t) => t.split('#')[0]!);
    expect(files).toContain('CHANGELOG.md');
    const shipped = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { files: string[] }).files;
    for (const file of files) {
      expect(existsSync(join(repo, file)), file).toBe(true);
      expect(shipped.some((entry) => file === entry || file.startsWith(`${entry}/`)), `${file} in package.json "files"`).toBe(true);
    }
  });
});
