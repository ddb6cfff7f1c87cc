// The plain scan of argv that start-up uses to do less (src/argv-scan.ts): main.ts
// builds only the named group's commands. Whatever the scan guesses, a user sees what
// the whole tree would show.
import { describe, expect, it } from 'vitest';
import { GLOBAL_VALUE_OPTIONS, scanArgv } from '../src/argv-scan.js';
import { loadCommands } from '../src/commands/index.js';
import { buildProgram } from '../src/program.js';
import { runBo } from './helpers/run-bo.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

describe('argv scan', () => {
  it('knows exactly the global options that take a value', () => {
    const program = buildProgram(commands, async () => {});
    const withValue = program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long].filter(Boolean));
    expect([...GLOBAL_VALUE_OPTIONS].sort()).toEqual(withValue.sort());
  });

  it('finds the command word past global options and their values', () => {
    expect(scanArgv(['-p', 'accounts', '--base-url', 'http://x', 'addons', 'expire'])).toEqual({ command: 'addons', verb: 'expire', profile: 'accounts', help: false });
    expect(scanArgv(['-pprod', '--json', 'accounts', '-h'])).toEqual({ command: 'accounts', profile: 'prod', help: true });
    expect(scanArgv(['--profile=stage', '--timeout', '5', 'api', '/x'])).toEqual({ command: 'api', verb: '/x', profile: 'stage', help: false });
    expect(scanArgv(['--', '-p', 'x'])).toEqual({ command: undefined, profile: undefined, help: false });
  });
});

describe('the tree built for one group', () => {
  it('runs the verb a profile named like a group stands before', async () => {
    const r = await runBo(['-p', 'accounts', 'addons', 'expire', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: bo addons expire /);
  });

  it('suggests among every group for a misspelt one, and among the verbs of a group', async () => {
    const group = await runBo(['acounts', 'list']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain("unknown command 'acounts'");
    expect(group.stderr).toContain('(did you mean accounts?)');
    const verb = await runBo(['accounts', 'lst']);
    expect(verb.code).toBe(2);
    expect(verb.stderr).toContain('(did you mean list?)');
  });

  it('still lists every group in bo help and at bo alone', async () => {
    for (const argv of [['help'], []]) {
      const r = await runBo(argv);
      const text = r.stdout + r.stderr;
      for (const group of new Set(commands.filter((d) => !d.hidden).map((d) => d.path[0]))) expect(text, `${argv.join(' ')}: ${group}`).toContain(`  ${group}`);
    }
  });

  it('a command built alone says what it says in the whole tree: help, a wrong option, too many arguments', async () => {
    // `bo help accounts list` builds the whole tree (help is not a group); `bo accounts list …` builds the one command.
    const alone = await runBo(['accounts', 'list', '--help']);
    const whole = await runBo(['help', 'accounts', 'list']);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^Usage: bo accounts list /);
    expect(alone.stdout).toBe(whole.stdout);
    const wrong = await runBo(['accounts', 'list', '--limt', '5']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("unknown option '--limt'");
    expect(wrong.stderr).toContain('(did you mean --limit?)');
    const extra = await runBo(['accounts', 'get', 'acc_1', 'acc_2']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toMatch(/too many arguments/);
  });

  it('reads a value-taking global option after the command word as before', async () => {
    const r = await runBo(['accounts', 'list', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: --timeout/);
  });
});
