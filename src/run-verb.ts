// Runs one verb once its options are parsed: the resource's --fields, --filter and
// --order-by checks (and `--fields` alone, which lists the fields), then the verb.
// Shared by the command line (main.ts) and `bo mcp`'s tool calls (mcp/call.ts), so a
// tool runs a verb exactly as the command line does.

import type { Command } from 'commander';
import type { CommandDefinition } from './command.js';
import type { Context } from './context.js';
import type { FieldFlags } from './output/field-list.js';
import { buildProgram } from './program.js';
import { handleFieldFlags } from './output/field-list.js';

export async function runVerb(ctx: Context, def: CommandDefinition<any>, cmd: Command, args: unknown[], opts: Record<string, unknown> = cmd.opts()): Promise<void> {
  // --fields, --filter and --order-by against the resource's known fields, for every command that prints one.
  const { fields, filter, orderBy } = cmd.opts<FieldFlags>();
  if (def.resource !== undefined && (fields !== undefined || filter !== undefined || orderBy !== undefined)) {
    if (await handleFieldFlags(ctx, def.resource, { fields, filter, orderBy })) return;
  }
  await def.run(ctx, args as Array<string | string[] | undefined>, opts);
}

/**
 * Runs a verb from a command line of its own (`argv`: its path, options, operands) in
 * `ctx`: parsed by the verb's commander declaration, as the command line is, then
 * runVerb. For `bo mcp`'s tool calls and `bo plan apply`; commander's own messages are
 * not written (its errors are thrown as CommanderError). `extra` joins the parsed options.
 */
export async function runArgv(ctx: Context, def: CommandDefinition<any>, argv: string[], extra: Record<string, unknown> = {}): Promise<void> {
  const program = buildProgram([def], (d, cmd, args) => runVerb(ctx, d, cmd, args, { ...cmd.opts(), ...extra }));
  const quiet = (cmd: Command): void => {
    cmd.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    cmd.commands.forEach(quiet);
  };
  quiet(program);
  await program.parseAsync(argv, { from: 'user' });
}
