// What a command receives. Everything a command touches comes through here, so tests
// can run `bo` in-process with their own streams, environment, prompter and stores.
// Heavy parts (HTTP, keychain, prompts) are created lazily, on first use.

import type { CredentialStore } from './auth/credential-types.js';
import type { Credential } from './api/http-types.js';
import type { HttpClient } from './api/http-types.js';
import type { Prompter } from './auth/prompter-types.js';
import type { SecretValues } from './api/secret-values.js';
import type { Profile } from './config/config.js';
import type { JqFilter } from './output/jq.js';

export interface Io {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * When both are terminals: false if stdout and stderr are different ones (progress
   * on stderr is then shown beside a table). Unknown counts as the same terminal.
   */
  stdoutSharesStderr?: boolean;
  /** Terminal width in cells when stdout is a TTY; tables fit it (none: no limit). */
  columns?: number;
  /** Terminal height in lines when stderr is a TTY: the login's QR code must fit it (none: unknown). */
  rows?: number;
  /** The environment `bo` runs in (process.env, or a test's own). */
  env: Record<string, string | undefined>;
}

/** Global options of COMMANDS.md, after flags, environment and config are merged. */
export interface Globals {
  profile: string;
  /** From --base-url / BO_BASE_URL only; the profile's setting is read by config. */
  baseUrl?: string;
  sandbox: boolean;
  json: boolean;
  jsonl: boolean;
  /** RFC 4180 on stdout (only commands that print records take it). */
  csv?: boolean;
  /** --csv-separator (checked); else the profile's csv-separator, else a comma. */
  csvSeparator?: string;
  /** --bom; else the profile's csv-bom. */
  bom?: boolean;
  /** Colour on stdout/stderr: off with --no-color, NO_COLOR, TERM=dumb, or no TTY. */
  color: boolean;
  /**
   * JSON on stdout (--json, --jq's results) indented and coloured for people: on as
   * `color` is, or forced by CLICOLOR_FORCE when piped (for `less -R`); never under
   * --no-color or NO_COLOR.
   */
  colorJson?: boolean;
  /** --jq <expression>: implies --json unless --jsonl is given. */
  jq?: string;
  /** False with --no-input, BO_NO_INPUT=1, or when stdin is not a TTY. */
  input: boolean;
  /** False with --no-log (adds donotlog=1). */
  log: boolean;
  verbose: boolean;
  /** Per-request timeout in seconds, when given by flag or BO_TIMEOUT. */
  timeout?: number;
  maxRetries: number;
}

export interface Clock {
  now(): Date;
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Where an API client's credential came from, for `bo auth status` and hints. */
export type CredentialSource = 'env' | 'store' | 'sandbox' | 'none';

export interface ApiOptions {
  /** Send no credential at all (D4 endpoints, `bo api --no-auth`). */
  anonymous?: boolean;
  /** Use this credential instead of the resolved one (login uses none). */
  credential?: Credential | null;
  /**
   * For the sandbox's admin endpoints (`bo sandbox users|fixtures|outbox|reset`): the
   * served sandbox at --base-url, else the embedded one in this process; no credential.
   */
  sandboxAdmin?: boolean;
  /** Ends the client's requests; default the run's own (Ctrl-C). A batch gives requests in flight a grace period. */
  signal?: AbortSignal;
}

export interface Context {
  io: Io;
  globals: Globals;
  clock: Clock;
  /**
   * The profile in effect with its settings: config.json is read on the first call and
   * kept for the run. Lazy, so that `bo config set/unset` can still repair a bad setting.
   */
  profile(): Promise<Profile>;
  /** Credential storage for the current profile's backend (keychain, file, memory). */
  credentials(): Promise<CredentialStore>;
  /** Interactive prompts; throws an AuthError/UsageError under --no-input. */
  prompter(): Promise<Prompter>;
  /** An HTTP client for the current profile, with its credential resolved. */
  api(options?: ApiOptions): Promise<HttpClient>;
  /** Aborted on Ctrl-C: long waits and requests listen to it. */
  signal: AbortSignal;
  /** The secrets this run holds (credential, password, codes, payment token…): never shown in errors or traces. */
  secrets: SecretValues;
  /** --jq's compiled filter, which the JSON writer (output/json-stream.ts) hands its text. */
  jq?: JqFilter;
  /** Told the run id of the journal a change opens (`bo plan apply` records it: D33). */
  journalOpened?: (runId: string) => void;
  // definitions(): every verb's definition, declared beside CommandDefinition in command.ts
  // (this file imports nothing of the command layer).
}
