// `--x` and `--no-x` on one command line contradict each other: exit 2 naming both,
// nothing sent, whatever the order (commander alone lets the last one win). Every pair
// in the command tree is found by walking it, so a new pair is covered without edits.
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../src/commands/index.js';
import { buildProgram } from '../src/program.js';
import { testEnv } from './helpers/test-env.js';
import { reply, useFaultServer } from './helpers/fault-server.js';
import { runBo } from './helpers/run-bo.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const fault = useFaultServer(reply.json(200, { Uid: 'x1' }));

interface Pair {
  /** A runnable command line up to the flags: the verb's words, its arguments, its required options. */
  words: string[];
  yes: Option;
  no: Option;
}

/** The words that run `cmd` (or, for a group or the root, its first verb) up to its flags. */
function runnable(cmd: Command, path: string[]): string[] {
  const verbs = cmd.commands.filter((c) => c.name() !== 'help');
  if (verbs.length > 0) return runnable(verbs[0]!, [...path, verbs[0]!.name()]);
  const args = cmd.registeredArguments.map(() => 'x1');
  const required = cmd.options.filter((o) => o.mandatory).flatMap((o) => [o.long!, 'x1']);
  return [...path, ...args, ...required];
}

function pairs(cmd: Command, path: string[] = []): Pair[] {
  const own = cmd.options
    .filter((o) => o.negate)
    .flatMap((no) => cmd.options.filter((o) => !o.negate && o.attributeName() === no.attributeName()).map((yes) => ({ yes, no })));
  const words = runnable(cmd, path);
  return [...own.map((p) => ({ ...p, words })), ...cmd.commands.flatMap((c) => pairs(c, [...path, c.name()]))];
}

/** The ways to give the positive flag: alone, or with a value (`--x v` and `--x=v`). */
const spellings = (o: Option): string[][] => (o.required || o.optional ? [[o.long!, 'v'], [`${o.long!}=v`]] : [[o.long!]]);

describe('contradicting options', () => {
  const all = pairs(buildProgram(commands, async () => {}));

  it('the tree has pairs to check (memberships update has two)', () => {
    const names = all.map((p) => `${p.words.slice(0, 2).join(' ')} ${p.yes.long}/${p.no.long}`);
    expect(names).toEqual(expect.arrayContaining(['memberships update --primary/--no-primary', 'memberships update --receive-invoices/--no-receive-invoices']));
  });

  it('every --x/--no-x pair given both ways, in either order, is exit 2 naming both, and nothing is sent', async () => {
    for (const { words, yes, no } of all) {
      for (const positive of spellings(yes)) {
        for (const order of [[...positive, no.long!], [no.long!, ...positive], [...positive, '--dry-run', no.long!, ...positive]]) {
          const argv = [...words, ...order, '--yes'];
          const r = await runBo(argv, { env: testEnv(fault()) });
          expect(r.code, argv.join(' ')).toBe(2);
          expect(r.stderr, argv.join(' ')).toBe(`error: ${yes.long} and ${no.long} contradict each other\n`);
          expect(r.stdout).toBe('');
        }
      }
    }
    expect(fault().requests).toHaveLength(0);
  });

  it('one of the pair, repeated, is sent; --no-primary sends IsPrimary false', async () => {
    const r = await runBo(['memberships', 'update', 'acc_1', 'pa_1', '--no-primary', '--no-primary'], { env: testEnv(fault()) });
    expect(r.code, r.stderr).toBe(0);
    expect(fault().requests.map((q) => q.body)).toEqual(['{"IsPrimary":false}']);
  });

  it('the --json error object on stderr says so too', async () => {
    const r = await runBo(['--json', 'memberships', 'update', 'acc_1', 'pa_1', '--primary', '--no-primary'], { env: testEnv(fault()) });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!)).toEqual({ error: { status: null, code: 'usage', message: '--primary and --no-primary contradict each other' } });
  });

  it('the global --no-input and bo api --input are no pair; a value after --x that looks like --no-x is a value', async () => {
    const api = await runBo(['api', '-X', 'POST', '/email/lists', '--input', '-', '--no-input'], { env: testEnv(fault()), stdin: '{"Name":"x"}' });
    expect(api.code, api.stderr).toBe(0);
    expect(fault().requests.map((q) => q.body)).toEqual(['{"Name":"x"}']);
    const role = await runBo(['memberships', 'update', 'acc_1', 'pa_1', '--role', '--no-primary', '--primary'], { env: testEnv(fault()) });
    expect(role.stderr).toBe('error: --role must be a whole number from 0 to 2147483647, not "--no-primary"\n');
  });
});
