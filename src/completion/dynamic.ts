// `bo __complete <source>`: the values a completion script cannot hold, because they
// change after the script was written: profile names (the config file) and setting
// keys (this bo's own list). The scripts run it at TAB time, so it answers as fast as
// `bo --version`: bin/bo.js calls runComplete from dist/complete.cjs before the main
// bundle loads. It imports the config file reader and nothing else: no commander, no
// keychain, no HTTP; it never sends a request.

import { loadConfig } from '../config/config.js';
import type { Env } from '../env.js';
import { SETTING_KEYS, parseProfileName } from '../config/settings.js';
import { UsageError, exitCodeOf } from '../errors.js';

/** What `bo __complete` lists. The scripts name these words. */
export const COMPLETION_SOURCES = ['profiles', 'settings'] as const;
export type CompletionSource = (typeof COMPLETION_SOURCES)[number];

/** The values of one source, sorted; an unknown source is a usage error. */
export function completionValues(source: string | undefined, env: Env): string[] {
  if (source === 'settings') return [...SETTING_KEYS].sort();
  if (source !== 'profiles') {
    throw new UsageError(`bo __complete takes one of ${COMPLETION_SOURCES.join(', ')}, got "${source ?? ''}"`);
  }
  const cfg = loadConfig(env);
  // "default" always works (`bo profiles use default`), even with nothing configured.
  const names = new Set(['default', ...Object.keys(cfg.profiles)]);
  if (cfg.currentProfile) names.add(cfg.currentProfile);
  // A hand-edited file may hold any key: offer only names bo accepts, which are also
  // plain words in every shell.
  return [...names].filter(isProfileName).sort();
}

function isProfileName(name: string): boolean {
  try {
    parseProfileName(name);
    return true;
  } catch {
    return false;
  }
}

interface Sink {
  write(text: string): unknown;
}

/**
 * `bo __complete SOURCE` for bin/bo.js: one value a line on stdout and exit 0; a
 * problem (an unknown source, an unreadable config file) is one `error:` line on
 * stderr, which the scripts discard, and its usual exit code.
 */
export function runComplete(args: string[], env: Env, stdout: Sink, stderr: Sink): number {
  try {
    const source = args.length === 1 ? args[0] : undefined;
    stdout.write(completionValues(source, env).map((v) => `${v}\n`).join(''));
    return 0;
  } catch (err) {
    stderr.write(`error: ${(err instanceof Error ? err.message : String(err)).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')}\n`);
    return exitCodeOf(err);
  }
}
