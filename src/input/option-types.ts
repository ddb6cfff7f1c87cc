// What an option's value is, beyond commander's flags string: repeatable flags collect
// their values into an array, integer flags carry their bounds. Declared once where the
// option is added, read by the parser (list-options.ts checks the bounds) and by
// `bo mcp`, whose tool schemas come from the same declarations (mcp/schema.ts).

import type { Option } from 'commander';

/** A repeatable flag's parser: each use adds its value to the array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Whether the option is a repeatable one (its parser is `collect`). */
export function isRepeatable(option: Option): boolean {
  return option.parseArg === (collect as unknown);
}

export interface IntegerBounds {
  minimum: number;
  maximum: number;
}

const integers = new WeakMap<Option, IntegerBounds>();

/** Declares the option an integer from `minimum` to `maximum`. */
export function integerOption(option: Option, minimum: number, maximum: number): Option {
  integers.set(option, { minimum, maximum });
  return option;
}

/** The bounds of an integer option, undefined for any other. */
export function integerBounds(option: Option): IntegerBounds | undefined {
  return integers.get(option);
}
