// --jq <expression>: real jq (jq 1.8.2 in WebAssembly, jq-engine.ts, a lazy chunk)
// on exactly the JSON bo would print, its results printed as gh prints them: a string
// raw, anything else as JSON, one value a line; compact when piped, indented and
// coloured for people (json-pretty.ts). json-stream.ts hands it the text: once the
// array or record --json prints, or a page of --jsonl lines at a time (jq runs the
// expression once per value, as on a JSON Lines file; a call costs a compile of the
// expression, so never one call per record).

import { BoError, UsageError } from '../errors.js';
import type { Env } from '../env.js';
import { escapeJson, neutraliseLines } from '../api/neutralise.js';
import { prettyJson } from './json-pretty.js';
import { jsonColours } from './style.js';

export interface JqFilter {
  /**
   * The text to print for `input` (JSON text, or its UTF-8, read during the call only:
   * one value, or JSON lines). On a runtime error it throws a JqRuntimeError whose
   * `output` holds what the values before the failing one (and the failing one, before
   * it failed) printed. When jq ran out of memory or recursed too deep, the same, and
   * every later call throws that error at once: jq is not run again (jq-engine.ts).
   */
  apply(input: string | Buffer, lines: boolean): string;
}

/** A runtime error of the expression: exit 1, after the output it still carries. */
export class JqRuntimeError extends BoError {
  constructor(
    message: string,
    /** What jq printed before the error, formatted: written before the error is reported. */
    readonly output: string,
  ) {
    super(`--jq: ${message}`, { code: 'jq' });
  }
}

/** The variables `$ENV` and `env` leave out: the credentials bo reads or sets. */
const SECRET_VARIABLES = ['BO_TOKEN', 'BO_API_SECRET', 'BO_TOTP_SECRET'];
/** Proxy variables, whose user and password are taken out of the URL. */
const PROXY_VARIABLES = /^(https?|all)_proxy$/i;

/**
 * The environment jq sees: bo's own minus its secrets (BO_TOKEN, BO_API_SECRET,
 * BO_TOTP_SECRET), proxy URLs without their user and password, and any variable that
 * holds one of those values.
 */
export function jqEnvironment(env: Env): string[] {
  const secrets: string[] = [];
  const kept: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (SECRET_VARIABLES.includes(name)) {
      if (value.length >= 4) secrets.push(value);
      continue;
    }
    if (PROXY_VARIABLES.test(name)) {
      const bare = withoutUserInfo(value);
      if (bare === undefined) {
        secrets.push(value);
        continue;
      }
      if (bare !== value) {
        secrets.push(...userInfoOf(value));
        kept.push([name, bare]);
        continue;
      }
    }
    kept.push([name, value]);
  }
  return kept.filter(([, value]) => !secrets.some((s) => value.includes(s))).map(([name, value]) => `${name}=${value}`);
}

/** A proxy URL without user and password; undefined when it cannot be read but may hold them. */
function withoutUserInfo(value: string): string | undefined {
  if (!value.includes('@')) return value;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return undefined;
  }
}

function userInfoOf(value: string): string[] {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    return [url.username, url.password, decodeURIComponent(url.password)].filter((s) => s.length >= 4);
  } catch {
    return [];
  }
}

/** The signals bo handles itself (main.ts), which cannot reach JavaScript while jq runs. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * `run()` with the signals' default action while it runs: jq runs synchronously, so
 * bo's own handlers could not run before it ends, and an expression that never ends
 * (`until(false; .)`) would leave Ctrl-C unanswered. As with jq itself, Ctrl-C then
 * ends bo at once (128 + the signal's number, as a shell reports it).
 */
function withDefaultSignals<T>(run: () => T): T {
  const saved = STOP_SIGNALS.map((signal) => [signal, process.listeners(signal)] as const);
  for (const [signal] of saved) process.removeAllListeners(signal);
  try {
    return run();
  } finally {
    for (const [signal, listeners] of saved) for (const listener of listeners) process.on(signal, listener);
  }
}

/** What bo says when jq aborted (jq-engine.ts JqRun.aborted), in place of the runtime's own words. */
const OUT_OF_RESOURCES = 'the filter ran out of memory or recursed too deep';

/** How jq begins the message of a value that failed. */
const RUNTIME_ERROR = /^jq: error \(at /m;

/** jq's first error line without its `jq: error…:` prefix and its place in bo's own input. */
function jqMessage(stderr: string, exitCode: number): string {
  const lines = stderr.split('\n');
  const first = lines.find((line) => RUNTIME_ERROR.test(line)) ?? lines.find((line) => line.trim() !== '');
  if (first === undefined) return `jq stopped with exit status ${exitCode}`;
  return first.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/:$/, '');
}

/**
 * Loads jq (the lazy chunk) and checks the expression: a syntax error, or a function
 * or variable it does not know, is a UsageError naming --jq before anything is sent.
 * `people`: indented and coloured JSON, strings neutralised (a terminal, or colour
 * forced); otherwise compact JSON and strings exactly as they are.
 */
export async function compileJq(expression: string, env: Env, people: boolean, stderr: NodeJS.WritableStream): Promise<JqFilter> {
  const { loadJqEngine } = await import('./jq-engine.js');
  const engine = await loadJqEngine(expression, jqEnvironment(env));
  // No input: jq compiles the expression and runs it on nothing.
  const check = engine.run('');
  if (check.aborted) throw new JqRuntimeError(OUT_OF_RESOURCES, '');
  if (check.exitCode !== 0) {
    throw new UsageError(`--jq: ${jqMessage(check.stderr, check.exitCode)}`);
  }
  const colours = jsonColours();
  const format = (stdout: string): string => {
    let out = '';
    for (const line of stdout.split('\n')) {
      if (line === '') continue;
      if (line.charCodeAt(0) === 0x22 /* " */) {
        const text = JSON.parse(line) as string;
        out += `${people ? neutraliseLines(text) : text}\n`;
      } else {
        const json = escapeJson(line);
        out += `${people ? prettyJson(json, colours) : json}\n`;
      }
    }
    return out;
  };
  // What `debug` and `stderr` write: on stderr too, API text in it neutralised as in any message.
  const passOn = (text: string) => {
    // (debug's is JSON: C1 and invisible characters escaped as --json escapes them.)
    if (text !== '') stderr.write(`${neutraliseLines(escapeJson(text.replace(/\n$/, '')))}\n`);
  };
  // jq's exit status tells of the last value only (a value failing before a good one
  // leaves it 0); its error lines tell of every one.
  const failed = (r: { stderr: string; exitCode: number }) => r.exitCode !== 0 || RUNTIME_ERROR.test(r.stderr);
  return {
    apply(input, lines) {
      const r = withDefaultSignals(() => engine.run(input));
      // The engine is dead now: no value by value again, and every later call ends here too.
      if (r.aborted) throw new JqRuntimeError(OUT_OF_RESOURCES, format(r.stdout));
      if (!failed(r)) {
        passOn(r.stderr);
        return format(r.stdout);
      }
      if (!lines) throw new JqRuntimeError(jqMessage(r.stderr, r.exitCode), format(r.stdout));
      // jq goes on after a value fails; bo stops there: value by value again (a rare
      // path), keeping what the values before it printed.
      let out = '';
      for (const value of String(input).split('\n')) {
        if (value === '') continue;
        const one = withDefaultSignals(() => engine.run(value));
        out += format(one.stdout);
        if (one.aborted) throw new JqRuntimeError(OUT_OF_RESOURCES, out);
        if (failed(one)) throw new JqRuntimeError(jqMessage(one.stderr, one.exitCode), out);
        passOn(one.stderr);
      }
      // Failed as a whole but not value by value (`input` reading past its page):
      throw new JqRuntimeError(jqMessage(r.stderr, r.exitCode), out);
    },
  };
}
