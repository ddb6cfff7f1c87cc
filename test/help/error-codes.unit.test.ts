// The error codes are listed once, in src/errors.ts (ERROR_CODE_MEANINGS): the docs'
// table (docs/scripting.md, "Exit codes and error codes"), `bo help exit-codes` and bo(1)
// show exactly those, in that order, and every code has its meaning.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_CODE_MEANINGS } from '../../src/errors.js';
import { runBo } from '../helpers/run-bo.js';

const page = readFileSync(fileURLToPath(new URL('../../docs/scripting.md', import.meta.url)), 'utf8');
const manPage = readFileSync(fileURLToPath(new URL('../../man/bo.1', import.meta.url)), 'utf8');

/** The rows of the error-code table of docs/scripting.md: a code in backticks, its meaning. */
function documented(): Array<[string, string]> {
  return [...page.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!]);
}

describe('the one list of error codes', () => {
  it('each code has a one-line meaning', () => {
    expect(ERROR_CODES.length).toBe(15);
    for (const code of ERROR_CODES) expect(ERROR_CODE_MEANINGS[code], code).toMatch(/^[a-zA-Z-][^\n]{10,}$/);
    expect(ERROR_CODES).toEqual(expect.arrayContaining(['incomplete', 'output', 'internal']));
  });

  it('docs/scripting.md documents exactly the code\'s list, each with its meaning', () => {
    expect(documented()).toEqual(ERROR_CODES.map((code) => [code, ERROR_CODE_MEANINGS[code]]));
  });

  it('bo help exit-codes prints every code with its meaning, in order', async () => {
    const r = await runBo(['help', 'exit-codes'], { columns: 200 });
    expect(r.code).toBe(0);
    const listed = r.stdout.slice(r.stdout.indexOf('Error codes:'));
    expect([...listed.matchAll(/^ {2}([a-z_]+) {2,}\S/gm)].map((m) => m[1])).toEqual(ERROR_CODES);
    // Each meaning beside its code (wrapped to the terminal's width).
    const flat = listed.replace(/\s+/g, ' ');
    for (const code of ERROR_CODES) expect(flat).toContain(` ${code} ${ERROR_CODE_MEANINGS[code]} `);
  });

  it('bo(1) lists them under EXIT STATUS', () => {
    const status = manPage.slice(manPage.indexOf('.SH EXIT STATUS'), manPage.indexOf('.SH FILES'));
    const terms = [...status.matchAll(/^\.B ([a-z_]+)$/gm)].map((m) => m[1]);
    expect(terms).toEqual(ERROR_CODES);
  });
});
