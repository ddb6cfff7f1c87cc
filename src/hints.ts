// Hints that name a `bo` command name it as the user must type it in this run: with
// `--sandbox` when the run used the embedded sandbox, and with `-p <profile>` when a
// profile was chosen for the run (flag or BO_PROFILE). Every hint that names a command
// is built here, from the run's globals, so none says `bo login` where
// `bo --sandbox login` or `bo -p staging login` is meant.

/** What of a run decides how a command must be typed. */
export interface CommandLine {
  sandbox: boolean;
  /** The profile chosen for the run ('' when none was: the current one). */
  profile: string;
}

/** `bo [--sandbox] [-p <profile>] <rest>`. */
export function boCommand(run: CommandLine, rest: string): string {
  const words = ['bo'];
  if (run.sandbox) words.push('--sandbox');
  // Under --sandbox the profile "sandbox" is the one chosen when none is.
  if (run.profile && !(run.sandbox && run.profile === 'sandbox')) words.push('-p', quoted(run.profile));
  return `${words.join(' ')} ${rest}`;
}

function quoted(word: string): string {
  return /^[\w.@%+=:,/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The variables a credential from the environment came from, for messages. */
export const ENV_CREDENTIALS = 'BO_TOKEN, or BO_API_KEY and BO_API_SECRET';

/** Not signed in: how to sign in (or, outside the sandbox, what to set for CI). */
export function signInHint(run: CommandLine): string {
  if (run.sandbox) return `run \`${boCommand(run, 'login')}\`, or \`${boCommand(run, 'logout')}\` to use the sandbox's own API key`;
  return `run \`${boCommand(run, 'login')}\` or \`${boCommand(run, 'auth set-key')}\`, or set ${ENV_CREDENTIALS}`;
}

/**
 * A credential the server refused (401): where it came from decides what helps. From the
 * environment: those variables, which `bo` cannot change. Stored: sign in again. The
 * API-key scheme word is named when an API key was sent.
 */
export function rejectedHint(run: CommandLine, source: { env?: string[]; apiKeyScheme?: string }): string {
  const scheme =
    source.apiKeyScheme === undefined
      ? ''
      : ` The API key was sent with the scheme word "${source.apiKeyScheme}"; if the service uses another, set it with: ${boCommand(run, 'config set api-key-scheme <word>')}`;
  if (source.env?.length) {
    return `The credential came from the environment (${source.env.join(', ')}): check or replace ${source.env.length > 1 ? 'them' : 'it'}, or unset ${source.env.length > 1 ? 'them' : 'it'} to use the stored one.${scheme}`;
  }
  if (run.sandbox) return `Sign in again with \`${boCommand(run, 'login')}\`, or \`${boCommand(run, 'logout')}\` to use the sandbox's own API key.`;
  const again =
    source.apiKeyScheme === undefined ? `Sign in again with \`${boCommand(run, 'login')}\`` : `Store the right key with \`${boCommand(run, 'auth set-key')}\``;
  return `${again}, or for CI set ${ENV_CREDENTIALS}.${scheme}`;
}

/** The keychain holds the profile's credential but cannot be reached here: sign in to the 0600 file, or use the environment. */
export function keychainMissingHint(run: CommandLine): string {
  return `sign in again with \`${boCommand(run, 'login --insecure-storage')}\` (a 0600 file), or set ${ENV_CREDENTIALS}; \`${boCommand(run, 'doctor')}\` says why the keychain is not there`;
}
