// The environment bo runs in, as every layer sees it: process.env in main.ts, a
// test's own object in-process. A leaf module (no imports), so any layer may use it.

/** Environment variables by name; an unset one reads as undefined. */
export type Env = Record<string, string | undefined>;

/** A yes/no variable (BO_SANDBOX, BO_NO_INPUT, BO_DEBUG, BO_NO_PROGRESS): set, and not empty, `0` or `false`. */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
