// A small, fixed command tree for completion tests, so they do not change when the
// real commands do. Built by the real buildProgram, so it has the real global options.

import { Argument, Option, type Command } from 'commander';
import { defineCommand, type CommandDefinition } from '../../src/command.js';
import { buildProgram } from '../../src/program.js';

/** Text a careless generator would run as shell code. */
export const EVIL = `it's ]:"$(touch PWNED)" \`touch PWNED\` \\ ; touch PWNED`;
export const EVIL_CHOICES = ["it's", '$(touch PWNED)', 'a b', 'x;touch PWNED'];

const noop = async () => {};
const collect = (value: string, previous: string[]) => [...previous, value];

const defs: CommandDefinition<any>[] = [
  defineCommand({
    path: ['login'],
    summary: 'Sign in',
    examples: ['bo login'],
    configure: (cmd) =>
      cmd
        .addOption(new Option('--mechanism <m>', 'where the code goes').choices(['email', 'totp']))
        .option('--code <digits>', 'the 6-digit code')
        .option('--qr-png <file>', 'write the QR code')
        .option('--password-stdin', 'read the password from stdin')
        .addOption(new Option('--debug-token <t>', 'not for users').hideHelp()),
    run: noop,
  }),
  defineCommand({
    path: ['sandbox', 'serve'],
    summary: 'Run the emulator',
    examples: ['bo sandbox serve'],
    configure: (cmd) =>
      cmd
        .alias('start')
        .option('--port <n>', 'port')
        .option('--state <path>', 'state file')
        .option('--memory', 'keep state in memory'),
    run: noop,
  }),
  defineCommand({ path: ['sandbox', 'users'], summary: 'Demo logins', examples: ['bo sandbox users'], run: noop }),
  defineCommand({ path: ['sandbox', 'reset'], summary: 'Back to the seed', examples: ['bo sandbox reset'], run: noop }),
  defineCommand({
    path: ['api'],
    summary: 'Raw request',
    examples: ['bo api /crm/accounts'],
    configure: (cmd) =>
      cmd
        .argument('<path>', 'API path')
        .addOption(new Option('-X, --method <method>', 'HTTP method').choices(['GET', 'POST']))
        .option('-F, --field <key=value>', 'a body field (repeatable)', collect, [])
        .option('--input <file|->', 'body from a file'),
    run: noop,
  }),
  defineCommand({
    path: ['paint'],
    summary: EVIL,
    examples: ['bo paint red'],
    configure: (cmd) =>
      cmd
        .addArgument(new Argument('<colour>', 'a colour').choices(['red', 'green', 'blue']))
        .addArgument(new Argument('[file]', 'where to save'))
        .addOption(new Option('--style <s>', EVIL).choices(EVIL_CHOICES))
        .option('--note <text|@file>', 'a note, or @ and a file to read it from'),
    run: noop,
  }),
];

export function fixtureProgram(): Command {
  return buildProgram(defs, noop);
}
