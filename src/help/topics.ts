// Help topics: `bo help environment` and `bo help exit-codes`. Plain data, so adding a
// variable or a code is one line; the help command renders them. Light: it imports only
// the error codes' one list (errors.ts, which imports nothing).

import { ERROR_CODE_MEANINGS } from '../errors.js';

export interface EnvVariable {
  /** One name, or several read together (`BO_API_KEY`, `BO_API_SECRET`). */
  names: string[];
  meaning: string;
}

/** Every environment variable `bo` reads. Keep in step with the code (grep `env.`). */
export const environment: EnvVariable[] = [
  { names: ['BO_PROFILE'], meaning: 'the tenant profile, as --profile' },
  { names: ['BO_BASE_URL'], meaning: 'the tenant root, as --base-url' },
  { names: ['BO_SANDBOX'], meaning: '1: use the embedded sandbox, as --sandbox' },
  { names: ['BO_TOKEN'], meaning: 'a bearer token; wins over stored credentials (for CI); empty counts as not set; left out of $ENV and env in --jq' },
  {
    names: ['BO_API_KEY', 'BO_API_SECRET'],
    meaning: 'an API key pair; wins over stored credentials (for CI); empty counts as not set, and one without the other is exit 4; --jq sees no BO_API_SECRET',
  },
  { names: ['BO_NO_INPUT'], meaning: '1: never prompt, as --no-input' },
  { names: ['BO_DEBUG'], meaning: '1: HTTP trace on stderr with secrets redacted, as --verbose' },
  { names: ['BO_TIMEOUT'], meaning: 'per-request timeout in seconds, as --timeout (default 30)' },
  { names: ['BO_CONFIG_DIR'], meaning: 'the folder of config.json (and credentials.json with --insecure-storage)' },
  { names: ['BO_DATA_DIR'], meaning: "the data folder, where the embedded sandbox keeps its state" },
  { names: ['BO_STATE_DIR'], meaning: 'the state folder: the journal of every change (bo history) and the plans of bo mcp --writes plan (else $XDG_STATE_HOME/bo, else ~/.local/state/bo)' },
  { names: ['BO_JOURNAL'], meaning: 'off: keep no journal of changes, as the journal setting off' },
  {
    names: ['BO_NO_PROGRESS'],
    meaning: '1: no progress line on stderr during long work (--all, bo api --paginate, batches from stdin)',
  },
  { names: ['BO_MAX_RESPONSE_MB'], meaning: 'the most one answer may hold, in MB (1 to 4096, default 32); wins over the max-response-mb setting' },
  {
    names: ['BO_CA_FILE'],
    meaning:
      "a PEM file of certificate authorities (a company's) trusted as well as the system's, for this run; wins over the ca-file setting (bo config set ca-file <file>)",
  },
  {
    names: ['NODE_EXTRA_CA_CERTS'],
    meaning: "a PEM file of extra certificate authorities, read by Node itself for every Node program; ca-file and BO_CA_FILE add theirs to it",
  },
  { names: ['BO_KEYCHAIN_TIMEOUT'], meaning: 'seconds before a keychain call gives up (default 10)' },
  { names: ['BO_CODE_COMMAND_TIMEOUT'], meaning: 'seconds the --code-command of bo login has to print a code (default 120)' },
  { names: ['DBUS_SESSION_BUS_ADDRESS'], meaning: 'the session bus, where the Linux keychain (the Secret Service) is found' },
  {
    names: ['BO_TOTP_SECRET'],
    meaning: 'set by bo, not read: the new authenticator secret, passed to the --code-command of bo login during enrollment (never to --jq)',
  },
  { names: ['XDG_CONFIG_HOME'], meaning: 'the config folder is $XDG_CONFIG_HOME/bo when BO_CONFIG_DIR is not set (else ~/.config/bo)' },
  { names: ['XDG_STATE_HOME'], meaning: 'the state folder is $XDG_STATE_HOME/bo when BO_STATE_DIR is not set and it is an absolute path' },
  { names: ['XDG_DATA_HOME'], meaning: 'the data folder is $XDG_DATA_HOME/bo when BO_DATA_DIR is not set (else ~/.local/share/bo)' },
  { names: ['XDG_STATE_HOME'], meaning: 'the state folder is $XDG_STATE_HOME/bo when BO_STATE_DIR is not set (else ~/.local/state/bo)' },
  { names: ['HOME'], meaning: 'where ~/.config, ~/.local/share and ~/.local/state are; a home folder that does not exist is never created (set BO_CONFIG_DIR, BO_DATA_DIR, BO_STATE_DIR)' },
  { names: ['USERPROFILE'], meaning: 'the home folder when HOME is not set (Windows)' },
  { names: ['APPDATA'], meaning: "Windows: where bo mcp install and bo mcp status find Claude Desktop's and VS Code's configuration (on Linux, VS Code's is under $XDG_CONFIG_HOME, else ~/.config)" },
  {
    names: ['BO_PAGER', 'PAGER'],
    meaning:
      'the pager for long output on a terminal (lists, records, bo api), first set wins; neither set: less -FRXK when less is installed ' +
      '(short output prints as usual; Ctrl-C quits it). BO_PAGER=cat or an empty value: no pager. Never used when stdout is piped, nor for prompts, progress or batches',
  },
  { names: ['LESS', 'LV'], meaning: 'options of less and lv; set to FRX and -c for the pager when not set' },
  { names: ['PATH'], meaning: 'where the pager (less, or the command BO_PAGER names) is looked for, and claude for bo mcp install --client claude-code' },
  { names: ['NO_COLOR'], meaning: 'any value: no colour, as --no-color (--json and --jq results then print as in a pipe)' },
  {
    names: ['CLICOLOR_FORCE'],
    meaning: '1: --json and --jq results indented and coloured even when piped (for less -R); NO_COLOR and --no-color win',
  },
  { names: ['TERM'], meaning: 'dumb: no colour' },
  {
    names: ['LC_ALL', 'LC_CTYPE', 'LANG'],
    meaning: 'the locale, first set wins: when it is not UTF-8 (LANG=C), marks, table borders, boxes and the progress line fall back to ASCII',
  },
  {
    names: ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'],
    meaning: 'proxies for https and http requests, and the hosts that bypass them (lower-case names work too); --jq sees them without user and password',
  },
];

export const exitCodes: Array<{ code: number; meaning: string; script: string }> = [
  { code: 0, meaning: 'success', script: 'carry on' },
  {
    code: 1,
    meaning:
      'the request failed: a server refusal not listed below (validation, conflict, expired), a server error, the network, a timeout, an unexpected answer; ' +
      'or stdout could not be written (a full disk), or an internal error (a bug in bo)',
    script: 'read the message; retry later only if the failure looks temporary (a write may already have happened)',
  },
  {
    code: 2,
    meaning:
      'usage: unknown command or flag, invalid input (nothing was sent), a confirmation needed under --no-input, ' +
      'a confirmation declined at the prompt (nothing was changed)',
    script: 'fix the command line; retrying the same line fails the same way (pass --yes to confirm under --no-input)',
  },
  { code: 3, meaning: 'not found', script: 'the record does not exist: treat as absent, or check the Uid' },
  {
    code: 4,
    meaning:
      "authentication: no credentials, rejected credentials, not permitted, wrong password, a two-factor code refused or missing, a proxy's user and password refused or missing",
    script: "sign in again (bo login), or set BO_TOKEN or BO_API_KEY and BO_API_SECRET; check with bo auth status --verify (a proxy's: fix HTTPS_PROXY)",
  },
  { code: 5, meaning: 'rate limited, after the retries', script: 'wait (the message says how long) and run it again' },
  { code: 129, meaning: 'hung up (SIGHUP): the same stop as Ctrl-C', script: 'as for 130' },
  {
    code: 130,
    meaning: 'interrupted (Ctrl-C): sending stops; a batch gives what is in flight a second, reports the rest as "outcome unknown" and prints its summary',
    script: 'stop; a write in flight may or may not have happened',
  },
  {
    code: 141,
    meaning: 'a batch whose stdout was closed (| head): it stopped sending, let what was in flight finish and printed its counts on stderr',
    script: 'the batch did not finish: read its output in full, or run again the records it did not reach',
  },
  { code: 143, meaning: 'terminated (SIGTERM: timeout, a cancelled CI job, docker stop): the same stop as Ctrl-C', script: 'as for 130' },
];

/** How pipes and signals bear on the exit code, after the list. */
export const pipeRule =
  'Pipes and signals never turn a failure into success: an error keeps its code even when stderr is closed. ' +
  'A read whose reader leaves early (bo accounts list --all | head -1) ends with 0; a batch whose stdout closes exits 141. ' +
  'A stdout that cannot be written (a full disk) ends any command with 1, code output; a batch then stops sending too and prints its counts on stderr. ' +
  'A second Ctrl-C leaves at once. ' +
  'On a terminal, q in the pager ends bo with 0 (a list stops fetching pages), Ctrl-C with 130.';

/** Before the error codes, after the exit codes. */
export const errorCodesIntro =
  'Error codes: under --json (or --jsonl) an error also prints {"error":{"status","code","message"}} on stderr. ' +
  "Its code is the server's own when it sent one, else one of these:";

/** The error codes and their meanings: errors.ts's one list. */
export const errorCodes = Object.entries(ERROR_CODE_MEANINGS).map(([code, meaning]) => ({ code, meaning }));

/** `reference` is rendered from the command tree (reference.ts), the others here. */
export const topicNames = ['environment', 'exit-codes', 'reference'] as const;

/** How the help command lays out text: commander's, wrapped to the terminal. */
export interface Layout {
  paragraph(text: string): string;
  /** A term and its description, the description wrapped beside the term. */
  item(term: string, termWidth: number, description: string): string;
}

const codeWidth = Math.max(...errorCodes.map((c) => c.code.length));

export function renderTopic(name: string, layout: Layout): string | undefined {
  if (name === 'environment') {
    const terms = environment.map((v) => v.names.join(', '));
    const width = Math.max(...terms.map((t) => t.length));
    return (
      `${layout.paragraph('Environment variables bo reads. A flag given on the command line wins over its variable.')}\n\n` +
      `${environment.map((v, i) => layout.item(terms[i]!, width, v.meaning)).join('\n')}\n`
    );
  }
  if (name === 'exit-codes') {
    return (
      `${layout.paragraph('Exit codes, and what a script should do about each.')}\n\n` +
      `${exitCodes.map((c) => layout.item(String(c.code), 3, `${c.meaning}.\nScript: ${c.script}.`)).join('\n\n')}\n\n` +
      `${layout.paragraph(pipeRule)}\n\n` +
      `${layout.paragraph(errorCodesIntro)}\n\n` +
      `${errorCodes.map((c) => layout.item(c.code, codeWidth, c.meaning)).join('\n')}\n`
    );
  }
  return undefined;
}
