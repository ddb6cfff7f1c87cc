// Every example of every help page (the root, each group, each verb: the command tree
// walked) runs as written against the embedded sandbox: `bo` is `bo --sandbox`, a
// destructive command gets --dry-run, and the files and variables an example reads are
// made here from the sandbox's seeded fixtures. An example fails the test when it exits
// non-zero or with a usage error, so an example naming a Uid the sandbox never had can
// not rot in the help. The examples that need what a test does not have (a real tenant,
// a terminal, a process that runs until stopped) say so in their definition and are
// listed here as skipped, with that reason.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { exampleCommand, exampleNeeds, examplesToRun, type Example } from '../../src/help/examples.js';
import { buildProgram } from '../../src/program.js';
import { binPath, ensureBuilt } from '../helpers/run-bin.js';

const commands = await loadCommands();

interface Node {
  path: string[];
  cmd: Command;
}
const walk = (cmd: Command, path: string[] = []): Node[] => [{ path, cmd }, ...cmd.commands.flatMap((c) => walk(c, [...path, c.name()]))];
const tree = buildProgram(commands, async () => {});
const nodes = walk(tree);
// Destructive: as the verb's mutation definition says (src/mutation/define.ts).
const destructive = commands.filter((c) => c.mutation?.destructive).map((c) => c.path.join(' '));

const examples: Array<{ page: string; example: Example }> = nodes.flatMap((n) =>
  examplesToRun(n.cmd).map((example) => ({ page: `bo ${n.path.join(' ')}`.trim(), example })),
);
// A group page repeats its verbs' first examples: each line runs once, in the order a
// reader meets it.
const firstOf = <T extends { example: Example }>(list: T[]) =>
  list.filter((e, i) => list.findIndex((o) => exampleCommand(o.example) === exampleCommand(e.example)) === i);
const runnable = firstOf(examples.filter((e) => exampleNeeds(e.example) === undefined));
const marked = firstOf(examples.filter((e) => exampleNeeds(e.example) !== undefined));

let root: string;
let env: Record<string, string>;
let state: string;

beforeAll(() => {
  ensureBuilt();
  // Each run of this test: its own data folder, config folder and home.
  root = mkdtempSync(join(tmpdir(), 'bo-examples-'));
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  // Nothing else in the home folder: the completion examples create the folders they write to.
  for (const dir of [home, bin, join(root, 'work')]) {
    mkdirSync(dir, { recursive: true });
  }
  // `bo` as the examples call it: the built binary, on the embedded sandbox.
  writeFileSync(join(bin, 'bo'), `#!/bin/sh\nexec "${process.execPath}" "${binPath}" --sandbox "$@"\n`);
  chmodSync(join(bin, 'bo'), 0o755);
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    LANG: 'C.UTF-8',
    BO_DATA_DIR: join(root, 'data'),
    BO_CONFIG_DIR: join(root, 'config'),
    // Variables examples read, as a script would have set them.
    TOKEN: 'tok_visa_4242',
    SECRET: 'an-api-secret',
  };
  const bo = (...args: string[]) => execFileSync(join(bin, 'bo'), args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const fixtures = JSON.parse(bo('sandbox', 'fixtures'));
  // The sandbox as a user who tried it has it: one email sent (for `sandbox outbox`).
  // Each example starts from this state, so none depends on what another one changed.
  const contact = JSON.parse(bo('accounts', 'get', fixtures.accounts[0], '--json')).PrimaryContact.Email;
  bo('people', 'magic-link', contact);
  state = join(env.BO_DATA_DIR!, 'sandbox-state.json');
  copyFileSync(state, join(root, 'seeded-state.json'));
  // The files examples read, made from the seeded records.
  const work = join(root, 'work');
  const jsonl = (uids: string[]) => uids.map((Uid) => `${JSON.stringify({ Uid })}\n`).join('');
  const tsv = (uids: string[]) => uids.map((uid) => `${uid}\tsomething else\n`).join('');
  const files: Record<string, string> = {
    'churned.jsonl': jsonl(fixtures.accounts.slice(10, 12)),
    'stale-deals.jsonl': jsonl(fixtures.deals.slice(2, 4)),
    'renewals.jsonl': fixtures.deals.slice(4, 6).map((Uid: string, i: number) => `${JSON.stringify({ Uid, NewAmount: 1000 + i })}\n`).join(''),
    'articles.jsonl': jsonl(fixtures.articles.slice(0, 3).map((a: { uid: string }) => a.uid)),
    'addons.tsv': tsv(fixtures.subscriptionAddOns.slice(4, 6)),
    'over-quota.tsv': tsv(fixtures.subscriptions.slice(4, 6)),
    'lists.jsonl': '{"name":"Beta testers","about":"Early access"}\n{"name":"Webinar guests","about":"Spring webinar"}\n',
    'signups.tsv': 'Ada\tada@example.com\nGrace\tgrace@example.com\n',
    'day1.html': '<p>Welcome aboard</p>\n',
    'welcome.html': '<p>Welcome to the beta</p>\n',
    'notes.txt': 'Closed after the call.\n',
    'upgrade.txt': 'You have more users than seats.\n',
    'token.txt': 'tok_visa_4242\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text);
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The example as run: a destructive command gets --dry-run right after its name. */
function asRun(example: string): string {
  let line = example;
  for (const path of destructive) line = line.replaceAll(`bo ${path} `, `bo ${path} --dry-run `);
  return line;
}

describe('every help example runs against the embedded sandbox', () => {
  it('finds the examples of every page: the root, the groups and the verbs', () => {
    expect(examples.some((e) => e.page === 'bo')).toBe(true);
    expect(examples.some((e) => e.page === 'bo accounts')).toBe(true);
    expect(examples.some((e) => e.page === 'bo accounts list')).toBe(true);
    expect(destructive).toEqual(expect.arrayContaining(['accounts cancel', 'drips delete']));
    expect(runnable.length).toBeGreaterThan(50);
  });

  it.each(runnable.map((e) => [e.page, exampleCommand(e.example)] as const))('%s: %s', (_page, example) => {
    copyFileSync(join(root, 'seeded-state.json'), state);
    const r = spawnSync('bash', ['-o', 'pipefail', '-c', asRun(example)], {
      cwd: join(root, 'work'),
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    const said = `exit ${r.status}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
    expect(r.status, said).toBe(0);
    expect(r.stderr, said).not.toMatch(/^error: /m);
  });

  // Listed, with what they need, so the report shows what was not run.
  it.skip.each(marked.map((e) => [e.page, exampleCommand(e.example), exampleNeeds(e.example)] as const))(
    '%s: %s (needs %s)',
    () => {},
  );

  it('every marked example says what it needs', () => {
    for (const e of marked) expect(exampleNeeds(e.example)!.trim(), exampleCommand(e.example)).not.toBe('');
  });
});

describe('examples name the sandbox\'s own Uids', () => {
  it('every Uid-looking word of an example is one the seeded sandbox has', () => {
    const out = execFileSync(join(root, 'bin', 'bo'), ['sandbox', 'fixtures'], { env, encoding: 'utf8' });
    const known = new Set(out.match(/\b[a-z]+_[a-z0-9]+\b/g));
    const words = examples.flatMap((e) => exampleCommand(e.example).match(/\b(acc|mem|deal|plan|addon|sub|subaddon|sa|coupon|list|bc|bcast|drip|art|tag|per|pa|stage|seg|redeem)_[a-z0-9]+\b/g) ?? []);
    expect(words.length).toBeGreaterThan(20);
    expect(words.filter((w) => !known.has(w))).toEqual([]);
  });
});
