// The committed-style scripts of the real command tree in real bash, zsh and fish, with
// the built `bo` on PATH: commands, flags and fixed values from the script itself,
// profile names and setting keys from `bo __complete` reading a config file this test
// writes, and file names where a flag takes a file.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { completionScript } from '../../src/completion/script.js';
import { SETTING_KEYS } from '../../src/config/settings.js';
import { buildProgram } from '../../src/program.js';
import { binPath } from '../helpers/run-bin.js';
import { longFlags, subcommands } from './expect.js';
import { complete, SCRATCH, typeInBash, type Completions, type ShellName } from './shells.js';

/** Every verb's definition (the registry loads them on demand). */
const commands = await loadCommands();

const program = buildProgram(commands, async () => {});
const keys = [...SETTING_KEYS].sort();

let root: string;
let env: Record<string, string>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'bo-dynamic-'));
  // `bo` on PATH is the built binary, as after an install.
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'bo'), `#!/bin/sh\nexec '${process.execPath}' '${binPath}' "$@"\n`);
  chmodSync(join(bin, 'bo'), 0o755);
  const config = join(root, 'config');
  mkdirSync(config);
  writeFileSync(
    join(config, 'config.json'),
    JSON.stringify({
      currentProfile: 'acme',
      profiles: {
        acme: { 'base-url': 'https://acme.example.com' },
        'staging-eu': { timeout: 5 },
        // Not a name bo accepts, and shell code if it ran: never offered.
        '$(touch PWNED)': {},
      },
    }),
  );
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    BO_CONFIG_DIR: config,
    // No keychain to ask, no tenant to reach.
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
  };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const profiles = ['acme', 'default', 'staging-eu'];

const cases: Array<{ name: string; line: string; want: (shell: ShellName) => string[] }> = [
  { name: 'a group', line: 'bo ', want: () => subcommands(program, []) },
  { name: 'a group by its prefix', line: 'bo prof', want: () => ['profiles'] },
  { name: "a group's verbs", line: 'bo profiles ', want: () => subcommands(program, ['profiles']) },
  { name: 'a flag', line: 'bo login --qr', want: () => ['--qr-png'] },
  { name: "a verb's flags", line: 'bo accounts list --', want: () => longFlags(program, ['accounts', 'list']) },
  { name: 'a fixed value', line: 'bo login --mechanism ', want: () => ['email', 'totp'] },
  { name: 'shells after completion', line: 'bo completion ', want: () => ['bash', 'fish', 'zsh'] },
  { name: 'profile names after --profile', line: 'bo --profile ', want: () => profiles },
  { name: 'profile names after -p, by prefix', line: 'bo accounts list -p st', want: () => ['staging-eu'] },
  {
    name: 'profile names after --profile=',
    line: 'bo --profile=a',
    want: (shell) => [shell === 'bash' ? 'acme' : '--profile=acme'],
  },
  { name: 'profile names after profiles use', line: 'bo profiles use ', want: () => profiles },
  { name: 'profile names after profiles remove', line: 'bo profiles remove d', want: () => ['default'] },
  { name: 'setting keys after config get', line: 'bo config get ', want: () => keys },
  { name: 'setting keys after config set', line: 'bo -p acme config set ', want: () => keys },
  { name: 'setting keys after config unset, by prefix', line: 'bo config unset ti', want: () => ['timeout'] },
  { name: 'no guess for a setting value', line: 'bo config set timeout ', want: () => [] },
  { name: 'file names after --qr-png', line: 'bo login --qr-png ', want: () => SCRATCH },
  { name: 'file names after --input', line: 'bo api /crm/accounts --input ', want: () => SCRATCH },
  { name: 'no hidden command', line: 'bo __', want: () => [] },
];

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion with values from bo __complete', (shell) => {
  let result: Completions;
  beforeAll(async () => {
    result = await complete(shell, completionScript(shell, program), cases.map((c) => c.line), env);
  });

  it.each(cases.map((c, i) => [c.name, c.line, i] as const))('%s: "%s"', (_name, line, i) => {
    expect(result.words[i], line).toEqual(cases[i]!.want(shell));
  });

  it('ran no command hidden in a profile name', () => {
    expect(result.files).toEqual(SCRATCH);
  });
});

describe('bash with real readline, values from bo __complete', () => {
  const typed: Array<[typed: string, after: string]> = [
    ['bo -p st', 'bo -p staging-eu '],
    ['bo --profile=st', 'bo --profile=staging-eu '],
    ['bo profiles use ac', 'bo profiles use acme '],
    ['bo config unset ti', 'bo config unset timeout '],
  ];
  let after: string[];
  beforeAll(async () => {
    after = await typeInBash(completionScript('bash', program), typed.map(([t]) => t), env);
  });

  it.each(typed.map(([t, want], i) => [t, want, i] as const))('"%s" + TAB → "%s"', (_t, want, i) => {
    expect(after[i]).toBe(want);
  });
});
