// Every committed man page renders with man-db's `man -l`, in the C locale and in UTF-8,
// with no troff warning, and reads as a manual page: its name, synopsis and sections.
// Each "See …" begins a sentence: what stands before it ends one (a summary ending in a
// parenthesis, "List accounts (GET /crm/accounts)", gets its full stop).

import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../man/', import.meta.url));
const pages = readdirSync(dir).filter((f) => f.endsWith('.1')).sort();

function render(page: string, locale: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'man',
      ['--warnings=w', '-l', `${dir}${page}`],
      { env: { PATH: process.env.PATH, LC_ALL: locale, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('man pages', () => {
  it('covers bo(1) and the commands', () => {
    expect(pages).toContain('bo.1');
    expect(pages).toContain('bo-addons-expire.1');
  });

  it.each(pages)('%s renders without warnings in the C and UTF-8 locales', async (page) => {
    const name = page.replace(/\.1$/, '');
    for (const locale of ['C', 'C.UTF-8']) {
      const r = await render(page, locale);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`${name.toUpperCase()}(1)`);
      expect(r.stdout).toMatch(/^NAME\n {7}\S/m);
      expect(r.stdout).toContain(`\n       ${name} - `);
      expect(r.stdout).toMatch(/^SYNOPSIS\n {7}bo\b/m);
    }
  });

  it.each(pages)('%s: every "See …" follows the end of a sentence', async (page) => {
    const r = await render(page, 'C.UTF-8');
    expect(r.code).toBe(0);
    // Lines joined as they read: a sentence may end on one line and "See" start the next.
    const flat = r.stdout.replace(/\s+/g, ' ');
    const unended = [...flat.matchAll(/(\S+) See /g)].filter((m) => !/[.!?]["')]*$/.test(m[1]!)).map((m) => flat.slice(Math.max(0, m.index - 60), m.index + m[0].length + 20));
    expect(unended).toEqual([]);
  });
});
