// `bo --version` and `bo --help` are answered by bin/bo.js from dist/top-help.json,
// captured from the commander tree at build time (scripts/top-help.mjs). These fail
// when that file no longer matches the tree (a new command or flag without a rebuild)
// or when the run-time wrapping drifts from commander's.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { captureTopHelp } from '../../src/help/top-help-capture.js';
import { renderTopHelp, type TopHelp } from '../../src/help/top-help-render.js';
import { buildProgram } from '../../src/program.js';
import { VERSION } from '../../src/version.js';
import { runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const built = (): TopHelp => JSON.parse(readFileSync(new URL('../../dist/top-help.json', import.meta.url), 'utf8'));
const program = () => buildProgram(commands, async () => {});

/** What commander itself prints for `bo --help` on a terminal `width` columns wide. */
function commanderHelp(width: number): string {
  let out = '';
  const p = program();
  p.configureOutput({ writeOut: (s) => (out += s), getOutHelpWidth: () => width, getOutHasColors: () => false });
  p.outputHelp();
  return out;
}

describe('pre-rendered top help', () => {
  it('dist/top-help.json is what the command tree gives now', () => {
    expect(built(), 'dist/top-help.json is stale: run `npm run build`').toEqual(captureTopHelp(program()));
    expect(built().version).toBe(VERSION);
  });

  it.each([40, 60, 80, 100, 132, 250])('wraps to %i columns exactly as commander does', (width) => {
    expect(renderTopHelp(built(), width)).toBe(commanderHelp(width));
  });

  it('the built binary prints the same --help, -h and --version as the in-process command tree', async () => {
    for (const args of [['--help'], ['-h'], ['--version']]) {
      const [bin, inProcess] = await Promise.all([runBin(args), runBo(args)]);
      expect(bin, args[0]).toEqual({ code: 0, signal: null, stdout: inProcess.stdout, stderr: '' });
      expect(inProcess.code).toBe(0);
    }
    expect((await runBin(['--version'])).stdout).toBe(`${VERSION}\n`);
  });

  it('anything more than the one flag goes to the full command tree', async () => {
    const r = await runBin(['accounts', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await runBo(['accounts', '--help'])).stdout);
    expect(r.stdout).toContain('Usage: bo accounts');
  });
});
