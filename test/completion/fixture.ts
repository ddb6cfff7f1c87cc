// A small, fixed command tree for completion tests, so they do not change when the
// real commands do. Built by the real buildProgram, so it has the real global options.

import { Option, type Command } from 'commander';
import { defineCommand, type CommandDefinition } from '../../src/command.js';
import { operand, option } from '../../src/input/declare.js';
import { buildProgram } from '../../src/program.js';

/** Text a careless generator would run as shell code. */
export const EVIL = `it's ]:"$(touch PWNED)" \`touch PWNED\` \\ ; touch PWNED`;
export const EVIL_CHOICES = ["it's", '$(touch PWNED)', 'a b', 'x;touch PWNED'];

const noop = async () => {};

const defs: CommandDefinition<any>[] = [
  defineCommand({
    path: ['login'],
    summary: 'Sign in',
    examples: ['bo login'],
    options: [
      option.choice('--mechanism <m>', 'where the code goes', ['email', 'totp']),
      option.text('--code <digits>', 'the 6-digit code'),
      option.text('--qr-png <file>', 'write the QR code'),
      option.switch('--password-stdin', 'read the password from stdin'),
    ],
    run: noop,
  }),
  defineCommand({
    path: ['sandbox', 'serve'],
    summary: 'Run the emulator',
    examples: ['bo sandbox serve'],
    options: [option.integer('--port <n>', 'port', 0, 65535), option.text('--state <path>', 'state file'), option.switch('--memory', 'keep state in memory')],
    run: noop,
  }),
  defineCommand({ path: ['sandbox', 'users'], summary: 'Demo logins', examples: ['bo sandbox users'], run: noop }),
  defineCommand({ path: ['sandbox', 'reset'], summary: 'Back to the seed', examples: ['bo sandbox reset'], run: noop }),
  defineCommand({
    path: ['api'],
    summary: 'Raw request',
    examples: ['bo api /crm/accounts'],
    operands: [operand.text('<path>', 'API path')],
    options: [
      option.choice('-X, --method <method>', 'HTTP method', ['GET', 'POST']),
      option.list('-F, --field <key=value>', 'a body field (repeatable)', { default: [] }),
      option.text('--input <file|->', 'body from a file'),
    ],
    run: noop,
  }),
  defineCommand({
    path: ['paint'],
    summary: EVIL,
    examples: ['bo paint red'],
    operands: [operand.choice('<colour>', 'a colour', ['red', 'green', 'blue']), operand.text('[file]', 'where to save')],
    options: [option.choice('--style <s>', EVIL, EVIL_CHOICES), option.text('--note <text|@file>', 'a note, or @ and a file to read it from')],
    run: noop,
  }),
];

/**
 * What no verb of bo declares but the completion scripts must still handle: a verb's
 * alias and an option hidden from help, added to the built tree with commander's own API.
 */
export function fixtureProgram(): Command {
  const program = buildProgram(defs, noop);
  const verb = (path: string[]) => path.reduce((cmd, name) => cmd.commands.find((c) => c.name() === name)!, program);
  verb(['sandbox', 'serve']).alias('start');
  verb(['login']).addOption(new Option('--debug-token <t>', 'not for users').hideHelp());
  return program;
}
