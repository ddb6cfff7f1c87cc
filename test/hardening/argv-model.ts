// The command tree as the fuzzers see it: every command `bo --help` lists, with its
// own flags, its positional arguments and the global flags, read from the same commander
// tree that dispatch, help and completions use, so a new verb is fuzzed without edits.

import fc from 'fast-check';
import { loadCommands } from '../../src/commands/index.js';
import { completionTree, type CommandSpec, type FlagSpec } from '../../src/completion/tree.js';
import { buildProgram } from '../../src/program.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

export interface CommandShape {
  path: string[];
  flags: FlagSpec[];
  args: number;
}

/** Every runnable command (groups leave out), `sandbox serve` left out: it never ends. */
export function commandShapes(): { shapes: CommandShape[]; globals: FlagSpec[] } {
  const tree = completionTree(buildProgram(commands, async () => {}));
  const shapes: CommandShape[] = [];
  const walk = (spec: CommandSpec) => {
    if (spec.path.length > 0 && spec.commands.length === 0) shapes.push({ path: spec.path, flags: spec.flags, args: spec.args.length });
    // A group on its own is a usage error too: keep it, with no flags of its own.
    if (spec.path.length > 0 && spec.commands.length > 0) shapes.push({ path: spec.path, flags: [], args: 1 });
    spec.commands.forEach(walk);
  };
  walk(tree.root);
  const kept = shapes.filter((s) => s.path.join(' ') !== 'sandbox serve');
  // --sandbox runs the emulator in-process: nothing would reach the recording server,
  // so the "nothing sent" check could not fail. It is fuzzed by the sandbox suites.
  const globals = tree.globals.filter((g) => !g.names.includes('--sandbox'));
  return { shapes: kept, globals };
}

/**
 * Values a user can type that the checks must refuse or accept cleanly: empty, huge,
 * negative and non-finite numbers, dates out of range, Unicode and controls, JSON and
 * key=value shapes, files that do not exist, `-` with an empty stdin. Nothing here may
 * name a reachable host or run a command with effects (--code-command runs its value).
 */
export const awkward = [
  '', ' ', '-', '--', '0', '-1', '1', '16', '17', '1.5', '1e309', '-1e309', '99999999999999999999999', '9007199254740993',
  'NaN', 'Infinity', '0x1f', '1_000', '١٢٣', '2026-02-30', '2026-13-01', '0000-01-01', '9999-12-31T23:59:59Z',
  '+275760-09-14T00:00:00Z', '-271821-04-19', '2026-01-01T25:00:00Z', '2026-06-30', '2026-06-30T12:00:00+02:00',
  'acc_0001', 'a b', 'a/b', '../x', 'a\tb', 'a\nb', '\u0000', '\u001b[2J', '\u009b31m', '\u202eevil', '\u200b',
  '😀', 'é', 'user@example.com', 'not-an-email', '@', '@/nonexistent/bo-fuzz', '@@x', 'a=b', '=', 'a=', '=b',
  'Name=x=y', '{', '{}', '[]', '{"a":1}', 'null', 'true', 'email', 'totp', 'sms', 'GET', 'POST', 'DELETE', 'get',
  '/crm/accounts', 'crm/accounts', '//evil.example/x', 'http://example.com', 'https://', 'ftp://127.0.0.1/',
  'http://user:pw@127.0.0.1:1', 'base-url', 'timeout', 'protected', 'api-key-scheme', 'nope', 'default', 'x'.repeat(5000),
];

const valueArb = (extra: string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...awkward, ...extra) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
    { weight: 1, arbitrary: fc.double().map(String) },
    { weight: 1, arbitrary: fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())) },
  );

/** Flags the tree does not know: commander must refuse them before anything runs. */
const unknownFlags = ['--bogus', '-z', '--json=1', '--limit=', '--', '---x', '--no-such'];

export interface Case {
  argv: string[];
}

/** One argv: the command's words, then positional values and flags in any order, repeats allowed. */
export function argvArb(shapes: CommandShape[], globals: FlagSpec[], pinnedUrl: string): fc.Arbitrary<Case> {
  const values = valueArb([pinnedUrl]);
  return fc.constantFrom(...shapes).chain((shape) => {
    const flags = [...shape.flags, ...globals].filter((f) => !f.names.includes('-h') && !f.names.includes('--version'));
    const flagToken = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...flags), values, fc.nat(9)).map(([flag, value, roll]) => flagWords(flag, value, roll)) },
      { weight: 1, arbitrary: fc.constantFrom(...unknownFlags).map((f) => [f]) },
    );
    const positional = values.map((v) => [v]);
    const words = fc.array(fc.oneof({ weight: 3, arbitrary: flagToken }, { weight: 2, arbitrary: positional }), { maxLength: shape.args + 5 });
    return words.map((groups) => ({ argv: [...shape.path, ...groups.flat()] }));
  });
}

/** A flag as a user writes it: `--f v`, `--f=v`, the short name, or (rarely) its value left out. */
function flagWords(flag: FlagSpec, value: string, roll: number): string[] {
  const long = flag.names.find((n) => n.startsWith('--')) ?? flag.names[0]!;
  const short = flag.names.find((n) => /^-[^-]$/.test(n));
  if (flag.value.kind === 'none') return [roll === 0 && short ? short : long];
  // --base-url only ever names the recording server or something invalid: a valid URL
  // of another host would send a request somewhere the test cannot count.
  if (long === '--base-url' && /^https?:\/\/[^@]*$/.test(value) && !value.startsWith('http://127.0.0.1:')) value = 'https://';
  if (flag.value.kind === 'choices' && roll < 5) value = flag.value.choices[roll % flag.value.choices.length]!;
  if (roll === 9) return [long];
  if (roll === 8) return [`${long}=${value}`];
  return [roll === 7 && short ? short : long, value];
}

/**
 * The examples each command's --help shows, as argv (the part before a pipe or a
 * redirection, host names pinned to the recording server): valid command lines to
 * break one word at a time.
 */
export function exampleArgvs(pinnedUrl: string): string[][] {
  const out: string[][] = [];
  for (const def of commands) {
    if (def.path.join(' ') === 'sandbox serve') continue;
    for (const example of def.examples) {
      if (!example.startsWith('bo ')) continue;
      const words = shellWords(example.split(/\s[|<>]\s|\s{2,}\(/)[0]!).slice(1);
      out.push(words.map((w) => (/^https?:\/\//.test(w) ? pinnedUrl : w)));
    }
  }
  return out;
}

function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** A valid example with one word replaced, one awkward word inserted, or one flag repeated with an awkward value. */
export function brokenExampleArb(examples: string[][]): fc.Arbitrary<Case> {
  return fc.tuple(fc.constantFrom(...examples), valueArb([]), fc.nat(), fc.nat(2)).map(([words, value, at, how]) => {
    const argv = [...words];
    const i = 1 + (at % Math.max(1, argv.length - 1));
    if (how === 0) argv[Math.min(i, argv.length - 1)] = value;
    else if (how === 1) argv.splice(i, 0, value);
    else {
      const flags = argv.filter((w) => w.startsWith('--'));
      if (flags.length > 0) argv.push(flags[at % flags.length]!, value);
      else argv.push(value);
    }
    return { argv };
  });
}
