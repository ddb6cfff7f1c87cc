// Typed errors. Commands throw these; src/main.ts is the one place that turns them
// into exit codes and one-line messages (COMMANDS.md "Exit codes").

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  auth: 4,
  rateLimited: 5,
  /** SIGHUP, SIGINT (Ctrl-C), SIGTERM: 128 + the signal's number, as a shell reports it. */
  hangup: 129,
  interrupted: 130,
  /** A batch whose stdout closed (128 + SIGPIPE). */
  outputClosed: 141,
  terminated: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorDetails {
  /** A second line that tells the user what to do next. */
  hint?: string;
  /** HTTP status, when the error came from the server. */
  status?: number;
  /** Machine code: the server's `error` field, or one of ERROR_CODES. */
  code?: string;
  /** The server's own error code (its `error` field), when it sent one. */
  serverCode?: string;
  /** The server's own words about the error (its message or description), when it gave some. */
  serverMessage?: string;
  cause?: unknown;
}

export class BoError extends Error {
  readonly exitCode: ExitCodeValue = ExitCode.failed;
  readonly hint?: string;
  readonly status?: number;
  readonly code?: string;
  readonly serverCode?: string;
  readonly serverMessage?: string;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.hint = details.hint;
    this.status = details.status;
    this.code = details.code;
    this.serverCode = details.serverCode;
    this.serverMessage = details.serverMessage;
  }
}

/** Bad input caught before anything was sent, unknown flags, a missing `--yes`. */
export class UsageError extends BoError {
  override readonly exitCode = ExitCode.usage;
}

/**
 * A confirmation the user declined: nothing was sent. Exit 2, as a confirmation not
 * given under --no-input; reported as one plain line, not as an error.
 */
export class DeclinedError extends UsageError {
  constructor() {
    super('nothing was changed', { code: 'usage' });
  }
}

/** 404, or a lookup that found nothing. */
export class NotFoundError extends BoError {
  override readonly exitCode = ExitCode.notFound;
}

/** No credentials, 401/403, wrong password, a refused or missing code. */
export class AuthError extends BoError {
  override readonly exitCode = ExitCode.auth;
}

/** 429 after the retries. `retryAfter` is in seconds when the server said. */
export class RateLimitedError extends BoError {
  override readonly exitCode = ExitCode.rateLimited;
  readonly retryAfter?: number;
  constructor(message: string, details: ErrorDetails & { retryAfter?: number } = {}) {
    super(message, details);
    this.retryAfter = details.retryAfter;
  }
}

/** Ctrl-C, or a prompt closed by the user. */
export class InterruptedError extends BoError {
  override readonly exitCode = ExitCode.interrupted;
  constructor(message = 'interrupted') {
    super(message);
  }
}

/**
 * A batch whose stdout was closed (`| head -1`): it stopped sending. Also the reason
 * the run's signal carries then; a read simply ends (exit 0), src/main.ts decides.
 */
export class OutputClosedError extends BoError {
  override readonly exitCode = ExitCode.outputClosed;
  constructor(message = 'stdout was closed') {
    super(message, { code: 'interrupted' });
  }
}

/** A walk that ended short of the total the server announced (exit 1, code `incomplete`). */
export class IncompleteError extends BoError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, { ...details, code: 'incomplete' });
  }
}

/** stdout could not be written: ENOSPC, EIO, EDQUOT, EFBIG (exit 1, code `output`). */
export class OutputError extends BoError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(message, { ...details, code: 'output' });
  }
}

/**
 * A response the server refused (or that made no sense). The exit code follows the
 * status: 404 → 3, 401/403 → 4, 429 → 5, anything else → 1.
 */
export class ApiError extends BoError {
  override readonly exitCode: ExitCodeValue;
  /** The parsed body (JSON value or text), for callers that need a field of it. */
  readonly body: unknown;
  /** Response headers, lower-cased names. */
  readonly headers: Record<string, string>;

  constructor(
    message: string,
    details: ErrorDetails & { status: number; body?: unknown; headers?: Record<string, string> },
  ) {
    super(message, details);
    this.body = details.body;
    this.headers = details.headers ?? {};
    this.exitCode = exitCodeForStatus(details.status);
  }
}

export function exitCodeForStatus(status: number): ExitCodeValue {
  if (status === 404) return ExitCode.notFound;
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 429) return ExitCode.rateLimited;
  return ExitCode.failed;
}

export function exitCodeOf(err: unknown): ExitCodeValue {
  return err instanceof BoError ? err.exitCode : ExitCode.failed;
}

/**
 * The codes `--json` errors carry when the server sent none (README "Output"): scripts
 * match on these, so they are a fixed set, never null and never a Node internal name.
 */
export const ERROR_CODES = [
  'usage',
  'not_found',
  'auth',
  'rate_limited',
  'network',
  'timeout',
  'too_large',
  'unexpected',
  'redirect',
  'interrupted',
  'jq',
  'failed',
  /** A walk that ended with fewer distinct records than the server announced. */
  'incomplete',
  /** stdout could not be written (a full disk, an I/O error); not a closed pipe. */
  'output',
  /** A bug: something escaped that no rule reports; `--verbose` shows the stack. */
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

function isErrorCode(code: string | undefined): code is ErrorCode {
  return (ERROR_CODES as readonly (string | undefined)[]).includes(code);
}

/** The stable code of an error: the server's when it sent one, else one of ERROR_CODES. */
export function errorCode(err: unknown): string {
  if (!(err instanceof BoError)) return 'failed';
  if (err.serverCode) return err.serverCode;
  if (isErrorCode(err.code)) return err.code;
  if (err instanceof UsageError) return 'usage';
  if (err instanceof InterruptedError) return 'interrupted';
  const byExit: Partial<Record<ExitCodeValue, ErrorCode>> = {
    [ExitCode.usage]: 'usage',
    [ExitCode.notFound]: 'not_found',
    [ExitCode.auth]: 'auth',
    [ExitCode.rateLimited]: 'rate_limited',
    [ExitCode.interrupted]: 'interrupted',
  };
  return byExit[err.exitCode] ?? 'failed';
}
