// Help text as a new user reads it: --yes says what it does on each command, --fields
// examples name paths the resource has, required options say so, commander's
// `(default: …)` never shows through, summaries are imperative, and a 60-column
// terminal gets option descriptions wrapped at spaces, never a word cut in two.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { buildProgram } from '../../src/program.js';
import { runBo } from '../helpers/run-bo.js';

const commands = await loadCommands();

const walk = (cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> => [
  { path, cmd },
  ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()])),
];
const all = walk(buildProgram(commands, async () => {})).filter((n) => !(n.cmd as unknown as { _hidden?: boolean })._hidden);
/** A help page with each option's wrapped description joined back onto its line. */
const page = async (...path: string[]) => (await runBo([...path, '--help'])).stdout.replace(/\n {10,}/g, ' ');
const optionLine = (text: string, flag: string) => text.split('\n').find((l) => l.trimStart().startsWith(flag)) ?? '';

/** The help of `cmd` rendered for a terminal `width` columns wide. */
function render(cmd: Command, width: number): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), getOutHelpWidth: () => width });
  cmd.outputHelp();
  return text;
}

describe('option texts', () => {
  it.each([['lists', 'create'], ['people', 'magic-link'], ['accounts', 'extend-trial']])(
    'bo %s %s: --yes is about a protected profile, not destructive batches',
    async (...path) => {
      const yes = optionLine(await page(...path), '--yes');
      expect(yes).toContain('on a protected profile');
      expect(yes).not.toContain('destructive');
    },
  );

  it('bo accounts cancel: --yes says the change cannot be undone', async () => {
    expect(optionLine(await page('accounts', 'cancel'), '--yes')).toContain('cannot be undone');
  });

  it.each([[['lists', 'list']], [['coupons', 'list']], [['coupons', 'redemptions']], [['accounts', 'list']]])(
    'bo %j: --fields names paths the resource has (no Plan.Name where there is no Plan)',
    async (path) => {
      const text = (await page(...path)).replace(/\s+/g, ' ');
      expect(text).toMatch(/--fields \[paths\] comma-separated property paths, e\.g\. (Name,Created|Name,PrimaryContact\.Email) /);
      expect(text).not.toContain('Plan.Name');
    },
  );

  it.each(all.flatMap((n) => n.cmd.options.filter((o) => o.mandatory).map((o) => [n.path.join(' '), o.long!] as const)))(
    'bo %s: %s says it is required',
    async (path, flag) => {
      // `(required)`, or `(one of a, b; required)` for a choice.
      expect(optionLine(await page(...path.split(' ')), flag)).toMatch(/[(; ]required\)$/);
    },
  );

  it('no page shows commander\'s (default: …); defaults are stated in words', async () => {
    for (const n of all) {
      const text = await page(...n.path);
      expect(text, n.path.join(' ')).not.toMatch(/\(default: ["[]/);
    }
    const serve = (await page('sandbox', 'serve')).replace(/\s+/g, ' ');
    expect(serve).toContain('--port <n> port to listen on (default 4010; 0 picks a free one)');
  });

  it('every summary and description starts with an imperative verb', () => {
    for (const n of all.filter((x) => x.path.length > 0)) {
      for (const text of [n.cmd.summary(), n.cmd.description()]) {
        expect(text.split(' ')[0], `${n.path.join(' ')}: ${text}`).not.toMatch(/^[A-Z][a-z]*[^s]s$/);
      }
    }
    expect(all.find((n) => n.path.join(' ') === 'login')!.cmd.description()).toMatch(/^Sign in /);
  });
});

describe('a 60-column terminal', () => {
  it.each(all.filter((n) => n.cmd.options.length > 0).map((n) => [n.path.join(' ') || '(bo)', n.cmd] as const))(
    'bo %s --help: option lines fit and no word is cut',
    (_name, cmd) => {
      const text = render(cmd, 60);
      const options = text.split('\nOptions:\n')[1]!.split('\n\n')[0]!;
      for (const line of options.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
      // Every word of every option description is there whole.
      const flowing = options.replace(/\s+/g, ' ');
      for (const o of cmd.options) for (const word of o.description.split(/\s+/)) expect(flowing, o.flags).toContain(word);
    },
  );
});
