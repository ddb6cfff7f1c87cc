// The committed man/ pages are what the command tree makes now (a new command or flag
// without `npm run build` fails here), package.json lists every one of them, and the
// roff escaping keeps any text from reading as a request or a stray escape.

import { readFileSync, readdirSync } from 'node:fs';
import type { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { manPages, text } from '../../src/help/man.js';
import { buildProgram } from '../../src/program.js';
import { VERSION } from '../../src/version.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { exampleCommand } from '../../src/help/examples.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const program = buildProgram(commands, async () => {});
const pages = manPages(program, VERSION);
const manDir = new URL('../../man/', import.meta.url);

function visible(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands
    .filter((c) => c.name() !== 'help' && !(c as unknown as { _hidden: boolean })._hidden)
    .flatMap((c) => [[...path, c.name()], ...visible(c, [...path, c.name()])]);
}

describe('man/', () => {
  it('holds exactly the pages the tree makes, as the build writes them', () => {
    const committed = readdirSync(manDir).filter((f) => f.endsWith('.1')).sort();
    expect(committed, 'man/ is stale: run `npm run build` and commit man/').toEqual([...pages.keys()].sort());
    for (const [name, page] of pages) {
      expect(readFileSync(new URL(name, manDir), 'utf8'), `man/${name} is stale: run \`npm run build\``).toBe(page);
    }
  });

  it('has bo(1) and one page for every visible group and verb, listed in package.json "man"', () => {
    const expected = ['bo.1', ...visible(program).map((p) => `bo-${p.join('-')}.1`)];
    expect([...pages.keys()].sort()).toEqual(expected.sort());
    expect(pages.has('bo-accounts-list.1')).toBe(true);
    expect(pages.has('bo-help.1')).toBe(false);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { man: string[]; files: string[] };
    expect(pkg.man.sort()).toEqual(expected.map((f) => `./man/${f}`).sort());
    expect(pkg.files).toContain('man');
  });

  it('bo(1) has the global options, environment, exit codes, files and examples', () => {
    const page = pages.get('bo.1')!;
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'GLOBAL OPTIONS', 'ENVIRONMENT', 'EXIT STATUS', 'FILES', 'EXAMPLES', 'SEE ALSO']) {
      expect(page).toContain(`.SH ${section}\n`);
    }
    for (const option of program.options) expect(page).toContain(text(option.flags));
    expect(page).toContain(text('BO_API_KEY, BO_API_SECRET'));
    expect(page).toMatch(/\.B 141\n/);
    expect(page).toContain(text('bo --sandbox accounts list  # try it on the embedded sandbox'));
  });

  it('a verb page has its usage, arguments, options and every example of its --help', () => {
    const def = commands.find((d) => d.path.join(' ') === 'addons expire')!;
    const page = pages.get('bo-addons-expire.1')!;
    expect(page).toContain(`.B ${text('bo addons expire')}\n`);
    expect(page).toContain('.SH ARGUMENTS');
    expect(page).toContain(text('--dry-run'));
    for (const example of def.examples) expect(page).toContain(text(exampleCommand(example)));
    expect(page).toMatch(/\.SH SEE ALSO\n\\fBbo\\-addons\\fR\(1\)/);
  });
});

describe('roff text', () => {
  it('lists each command as a sentence, then where its page is', () => {
    const page = pages.get('bo.1')!;
    const entries = page.split('\n').filter((l) => / See \\fBbo/.test(l));
    expect(entries.length).toBeGreaterThan(40);
    expect(entries.filter((l) => !/[.!?)] See \\fB/.test(l))).toEqual([]);
  });

  it('escapes what troff would act on, and keeps every line ASCII', () => {
    expect(text('.hidden')).toBe('\\&.hidden');
    expect(text("'quote")).toBe("\\&'quote");
    expect(text('a\\b --x')).toBe('a\\eb \\-\\-x');
    expect(text('wait… — ✔')).toBe('wait... \\(em \\[u2714]');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        for (const line of text(s).split('\n')) {
          expect(line).toMatch(/^[\x20-\x7e]*$/);
          expect(line).not.toMatch(/^[.']/);
          // Every backslash starts one of the escapes text() writes.
          expect(line.replace(/\\(e|-|&|~|\(em|\(en|\(oq|\(cq|\(lq|\(rq|\(mu|\(bu|\(->|\[u[0-9A-F]{4,6}\])/g, '')).not.toContain('\\');
        }
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});
