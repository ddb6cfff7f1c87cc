// A tool's input schema, read from the declaration the command's parser uses (the
// commander Command a definition configures), never written by hand: a switch is a
// boolean, a repeatable flag an array of strings, an integer flag an integer with its
// bounds (input/option-types.ts), a Uid argument a string with the Uid pattern, a
// choice an enum; required arguments are required. test/mcp/schema.unit.test.ts compares
// every tool's schema with its command.

import type { Argument, Command, Option } from 'commander';
import { integerBounds, isRepeatable } from '../input/option-types.js';
import { UID_PATTERN } from '../input/validate.js';
import { toolText } from './tool-text.js';

export type JsonSchema = Record<string, unknown>;

/** A Uid value: an argument named <somethingUid> or an option whose value is <uid>. */
const isUidName = (name: string) => /(?:^u|U)id$/.test(name);

export function optionSchema(option: Option): JsonSchema {
  const description = toolText(option.description);
  if (!option.required && !option.optional) return { type: 'boolean', description };
  if (isRepeatable(option)) return { type: 'array', items: { type: 'string' }, description };
  const bounds = integerBounds(option);
  if (bounds) return { type: 'integer', ...bounds, description };
  if (option.argChoices) return { type: 'string', enum: option.argChoices, description };
  const value = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  return isUidName(value) ? { type: 'string', pattern: UID_PATTERN, description } : { type: 'string', description };
}

export function argumentSchema(argument: Argument): JsonSchema {
  const description = toolText(argument.description);
  if (argument.variadic) return { type: 'array', items: { type: 'string' }, description };
  return isUidName(argument.name()) ? { type: 'string', pattern: UID_PATTERN, description } : { type: 'string', description };
}

/** One input property of a tool: where its value goes on the command line. */
export type Param =
  | { kind: 'argument'; name: string; argument: Argument }
  | { kind: 'option'; name: string; option: Option };

/**
 * The command's arguments and options as tool parameters, keyed as commander keys them
 * (argument name, option attribute name): those `keep` accepts. Help and negated
 * switches (`--no-auth`) are never parameters; descriptions are in a tool's words (tool-text.ts).
 */
export function paramsOf(cmd: Command, keep: (name: string) => boolean): Param[] {
  // `[-]` (read a batch from stdin) is no parameter: a tool never reads stdin.
  const args: Param[] = cmd.registeredArguments.filter((argument) => argument.name() !== '-').map((argument) => ({ kind: 'argument', name: argument.name(), argument }));
  const options: Param[] = cmd.options
    .filter((option) => !option.negate && option.long !== '--help')
    .map((option) => ({ kind: 'option', name: option.attributeName(), option }));
  return [...args, ...options].filter((p) => keep(p.name));
}

export function paramSchema(param: Param): JsonSchema {
  return param.kind === 'argument' ? argumentSchema(param.argument) : optionSchema(param.option);
}

/** The object schema of a tool's input: its parameters (plus `extra`), required ones required. */
export function inputSchema(params: Param[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const param of params) properties[param.name] = paramSchema(param);
  Object.assign(properties, extra);
  const required = params.filter((p) => (p.kind === 'argument' ? p.argument.required : p.option.mandatory)).map((p) => p.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
