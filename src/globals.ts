// The global options in effect for one run: the flags merged with the environment
// (COMMANDS.md "Global options"), checked once, before a command runs.

import type { Globals, Io } from './context.js';
import { UsageError } from './errors.js';
import { parseCsvSeparator, parseTimeout } from './config/settings.js';
import { envFlag } from './env.js';

/** Merges flags with the environment (COMMANDS.md "Global options"). */
export function resolveGlobals(opts: Record<string, unknown>, io: Io): Globals {
  const env = io.env;
  // 0.1 s to 24 h; the message names the flag or the variable the value came from.
  const timeoutFlag = opts.timeout as string | undefined;
  let timeout: number | undefined;
  if (timeoutFlag !== undefined) timeout = parseTimeout(timeoutFlag, '--timeout');
  else if (env.BO_TIMEOUT) timeout = parseTimeout(env.BO_TIMEOUT, 'BO_TIMEOUT');
  const retriesText = opts.maxRetries as string | undefined;
  let maxRetries = 3;
  if (retriesText !== undefined) {
    maxRetries = Number(retriesText);
    if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 10) {
      throw new UsageError(`--max-retries must be a whole number from 0 to 10, got "${retriesText}"`);
    }
  }
  const sandbox = opts.sandbox === true || envFlag(env.BO_SANDBOX);
  const colorAllowed =
    opts.color !== false && env.NO_COLOR === undefined && env.TERM !== 'dumb' && io.stdoutIsTTY;
  const jq = opts.jq as string | undefined;
  const separatorText = opts.csvSeparator as string | undefined;
  const csvSeparator = separatorText === undefined ? undefined : parseCsvSeparator(separatorText, '--csv-separator');
  for (const [flag, given] of [['--csv-separator', separatorText !== undefined], ['--bom', opts.bom === true]] as const) {
    if (given && opts.csv !== true) throw new UsageError(`${flag} applies with --csv`);
  }
  return {
    // '' = not chosen: the config's current profile, else 'default' (or 'sandbox' with
    // --sandbox, so a sandbox login never replaces a real tenant's credential).
    profile: (opts.profile as string | undefined) || env.BO_PROFILE || (sandbox ? 'sandbox' : ''),
    // --sandbox wins over every base URL: it never reaches a tenant.
    baseUrl: sandbox ? undefined : (opts.baseUrl as string | undefined) || env.BO_BASE_URL || undefined,
    sandbox,
    // --jq filters the JSON bo prints: --json unless --jsonl is given.
    json: opts.json === true || (jq !== undefined && opts.jsonl !== true),
    jsonl: opts.jsonl === true,
    csv: opts.csv === true,
    csvSeparator,
    bom: opts.bom === true ? true : undefined,
    color: colorAllowed,
    colorJson: colorAllowed || (opts.color !== false && env.NO_COLOR === undefined && envFlag(env.CLICOLOR_FORCE)),
    jq,
    input: opts.input !== false && !envFlag(env.BO_NO_INPUT) && io.stdinIsTTY,
    log: opts.log !== false,
    verbose: opts.verbose === true || envFlag(env.BO_DEBUG),
    timeout,
    maxRetries,
  };
}
