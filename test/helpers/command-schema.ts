// What a command's declarations say an MCP tool's input schema must be, read
// independently of src/mcp/schema.ts: each property an argument or option the command's
// parser (commander, rendered from the declarations) takes, of the type its declaration
// gives (a switch a boolean, a list an array of strings, an integer an integer, a
// variadic argument an array, any other a string), required where the parser requires it. Used by
// the unit test of every tool (test/mcp/schema.unit.test.ts) and by the built binary's
// tools/list over stdio (test/e2e/mcp-binary.test.ts).
import type { Command } from 'commander';
import type { CommandDefinition } from '../../src/command.js';
import { attributeName, operandName, optionsOf } from '../../src/input/declare.js';

export interface ToolSchema {
  type: string;
  properties: Record<string, Record<string, any>>;
  required?: string[];
}

/** What the declaration of an argument or option says its value is; undefined: the command's parser takes none of that name. */
export function expectedType(def: CommandDefinition<any, any>, cmd: Command, name: string): string | undefined {
  const arg = cmd.registeredArguments.find((a) => a.name() === name);
  if (arg) return arg.variadic ? 'array' : 'string';
  if (!cmd.options.some((o) => o.attributeName() === name)) return undefined;
  const declared = [...(def.fields ?? []), ...optionsOf(def, [])].find((d) => attributeName(d.flags) === name);
  if (!declared) return undefined;
  return ({ switch: 'boolean', list: 'array', integer: 'integer' } as Record<string, string>)[declared.kind] ?? 'string';
}

/** The arguments and options the command's parser requires, by name. */
export function requiredOf(cmd: Command): string[] {
  return [...cmd.registeredArguments.filter((a) => a.required).map((a) => a.name()), ...cmd.options.filter((o) => o.mandatory).map((o) => o.attributeName())];
}

/**
 * Each property as [tool, name, its schema type, the type the command says], and the
 * required lists of both, for one toEqual: a list tool's `limit` and `cursor` (which
 * replace the paging flags) are left out.
 */
export function schemaAgainstCommand(tool: string, schema: ToolSchema, def: CommandDefinition<any, any>, cmd: Command, list: boolean) {
  const properties = Object.entries(schema.properties).filter(([name]) => !(list && (name === 'limit' || name === 'cursor')));
  return {
    actual: { properties: properties.map(([name, prop]) => [tool, name, prop.type]), required: [tool, schema.required ?? []] },
    expected: { properties: properties.map(([name]) => [tool, name, expectedType(def, cmd, name)]), required: [tool, requiredOf(cmd)] },
  };
}

/** The command at `path` (['accounts', 'list']) in a program built from the command tree. */
export function commandAt(program: Command, path: string[]): Command {
  let cmd = program;
  for (const word of path) cmd = cmd.commands.find((c) => c.name() === word)!;
  return cmd;
}
