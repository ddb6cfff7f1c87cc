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
  /**
   * Says that bo made this error on purpose, also in another bundle's copy of this file
   * (the embedded sandbox, dist/lazy/sandbox.cjs, has its own: `instanceof` fails
   * across copies). A plain property: nothing shared between bundles.
   */
  readonly reportedByBo = true;
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

  /**
   * `cannot write the output: no space left on device`, from the write's error: the
   * system's words (`ENOSPC: no space left on device, write`) without its names.
   */
  static of(err: unknown): OutputError {
    const text = err instanceof Error ? err.message : String(err);
    const why = /^[A-Z][A-Z0-9_]*: (.*?)(?:, \w+)?$/.exec(text)?.[1] ?? text;
    return new OutputError(`cannot write the output: ${why}`, { cause: err });
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
 * The codes `--json` errors carry when the server sent none, each with what it means:
 * the one list, which `bo help exit-codes`, the man page and README "Output and exit
 * codes" show (test/help/error-codes.unit.test.ts compares them). Scripts match on these, so
 * they are a fixed set, never null and never a Node internal name.
 */
export const ERROR_CODE_MEANINGS = {
  usage: 'bad input, an unknown command or flag, a confirmation needed or declined: nothing was sent (exit 2)',
  not_found: 'the record does not exist (exit 3)',
  auth: 'no credentials, or credentials refused or not permitted (exit 4)',
  rate_limited: 'the server asked bo to slow down, past the retries (exit 5)',
  network: 'no connection: refused, unknown host, reset, TLS',
  timeout: 'no answer within the timeout (--timeout)',
  too_large: 'an answer over the size cap (BO_MAX_RESPONSE_MB)',
  unexpected: 'an answer that is not what the API sends',
  redirect: 'the server answered with a redirect, which bo does not follow',
  interrupted: 'Ctrl-C, SIGTERM or SIGHUP, or a batch whose stdout was closed',
  jq: 'a --jq expression that failed on the output (a syntax error is usage)',
  failed: 'anything else: a refusal without a code of its own, a server error, a batch with failed records',
  incomplete: 'a walk (--all) that ended with fewer records than the server announced',
  output: 'stdout could not be written (a full disk, an I/O error); a closed pipe is not one',
  internal: 'a bug in bo: run it again with --verbose to see where it happened',
} as const;

export type ErrorCode = keyof typeof ERROR_CODE_MEANINGS;

/** The codes of ERROR_CODE_MEANINGS, in its order. */
export const ERROR_CODES = Object.keys(ERROR_CODE_MEANINGS) as ErrorCode[];

function isErrorCode(code: string | undefined): code is ErrorCode {
  return code !== undefined && Object.hasOwn(ERROR_CODE_MEANINGS, code);
}

/**
 * An error of the system (fs, a socket: it names its `syscall`): the machine's state,
 * such as a folder bo may not write, not a bug; reported as it is, code `failed`.
 */
function isSystemError(err: unknown): boolean {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

/** Whether `err` escaped every rule that reports errors: a bug, code `internal` (exit 1). */
export function isInternal(err: unknown): boolean {
  const meant = err instanceof Error && (err as Error & { reportedByBo?: unknown }).reportedByBo === true;
  return !meant && !isSystemError(err);
}

/** The stable code of an error: the server's when it sent one, else one of ERROR_CODES. */
export function errorCode(err: unknown): string {
  if (!(err instanceof BoError)) {
    if (isInternal(err)) return 'internal';
    // Another bundle's BoError keeps its code; a system error's (ENOENT) is not one of these.
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' && isErrorCode(code) ? code : 'failed';
  }
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
