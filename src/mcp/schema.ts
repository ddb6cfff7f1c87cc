// A tool's input schema, rendered from the verb's declarations (input/declare.ts), the
// same data its commander options are rendered from: a switch is a boolean, a list an
// array of strings, an integer an integer with its bounds, a choice an enum, a Uid a
// string with the Uid pattern; required operands and options are required. Never written
// by hand: test/mcp/__toolsnaps__ holds every tool's schema as rendered.

import type { CommandDefinition } from '../command.js';
import { attributeName, isNegationOnly, operandName, optionsOf, type OperandDeclaration, type OptionDeclaration } from '../input/declare.js';
import { UID_PATTERN } from '../input/validate.js';
import { toolText } from './tool-text.js';

export type JsonSchema = Record<string, unknown>;

export function optionSchema(declared: OptionDeclaration): JsonSchema {
  const description = toolText(declared.help);
  switch (declared.kind) {
    case 'switch':
      return { type: 'boolean', description };
    case 'list':
      return { type: 'array', items: { type: 'string' }, description };
    case 'integer':
      return { type: 'integer', minimum: declared.minimum, maximum: declared.maximum, description };
    case 'choice':
      return { type: 'string', enum: declared.choices, description };
    case 'uid':
      return { type: 'string', pattern: UID_PATTERN, description };
    default:
      return { type: 'string', description };
  }
}

export function operandSchema(declared: OperandDeclaration): JsonSchema {
  const description = toolText(declared.help);
  if (declared.name.endsWith('...>') || declared.name.endsWith('...]')) return { type: 'array', items: { type: 'string' }, description };
  if (declared.kind === 'uid') return { type: 'string', pattern: UID_PATTERN, description };
  if (declared.kind === 'choice') return { type: 'string', enum: declared.choices, description };
  return { type: 'string', description };
}

/** One input property of a tool: an operand or an option of its verb, by the name an invocation gives it. */
export type Param = { kind: 'operand'; name: string; declared: OperandDeclaration } | { kind: 'option'; name: string; declared: OptionDeclaration };

/**
 * The verb's operands and options as tool parameters, keyed as an invocation keys them
 * (operand name, option attribute name): those `keep` accepts. `[-]` (a batch read from
 * stdin) and a `--no-x` alone are never parameters: a tool never reads stdin, and leaving
 * a parameter out is its default.
 */
export function paramsOf(def: CommandDefinition<any, any>, keep: (name: string) => boolean): Param[] {
  const operands: Param[] = ((def.operands ?? []) as readonly OperandDeclaration[])
    .filter((declared) => operandName(declared.name) !== '-')
    .map((declared) => ({ kind: 'operand', name: operandName(declared.name), declared }));
  const options: Param[] = optionsOf(def, [])
    .filter((declared) => !isNegationOnly(declared))
    .map((declared) => ({ kind: 'option', name: attributeName(declared.flags), declared }));
  return [...operands, ...options].filter((p) => keep(p.name));
}

export function paramSchema(param: Param): JsonSchema {
  return param.kind === 'operand' ? operandSchema(param.declared) : optionSchema(param.declared);
}

/** Whether the tool's verb needs the parameter. */
const isRequired = (param: Param) => (param.kind === 'operand' ? param.declared.name.startsWith('<') : param.declared.required === true);

/** The object schema of a tool's input: its parameters (plus `extra`), required ones required. */
export function inputSchema(params: Param[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const param of params) properties[param.name] = paramSchema(param);
  Object.assign(properties, extra);
  const required = params.filter(isRequired).map((p) => p.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
