// The --verbose trace: what was sent and what came back, one line per sink call, with
// every secret redacted by name (redact.ts) and every secret the run holds scrubbed by
// value as a second net (secret-values.ts). Bodies are cut at about 2 KB so a 100-record page stays readable.

import { neutralise } from './neutralise.js';
import { redactHeader, redactJson, redactText, redactUrl } from './redact.js';
import type { SecretValues } from './secret-values.js';

const BODY_LIMIT = 2048;

/** A body as the trace sees it: parsed JSON, raw text, or nothing. */
export type TracedBody = { json: unknown } | { text: string } | undefined;

export interface Tracer {
  request(method: string, url: URL, headers: Record<string, string>, body: TracedBody): void;
  response(status: number, statusText: string, ms: number, headers: Record<string, string>, body: TracedBody): void;
  /** Retries, timeouts and failures, prefixed with `*`. */
  note(text: string): void;
}

/**
 * Server text may carry escape sequences; a trace line must stay one harmless line.
 * Controls are shown as `\x1b` (a trace keeps what a sequence said, to debug it), then
 * the bidirectional and invisible characters are escaped as everywhere else (neutralise.ts).
 */
export function oneLine(text: string): string {
  const controls = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
    c === '\t' ? ' ' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return neutralise(controls);
}

export function formatBody(body: TracedBody): string | undefined {
  if (body === undefined) return undefined;
  const text = 'json' in body ? JSON.stringify(redactJson(body.json)) : redactText(body.text);
  if (text === undefined || text.length === 0) return undefined;
  return text.length > BODY_LIMIT
    ? `${text.slice(0, BODY_LIMIT)} … (${text.length - BODY_LIMIT} more characters)`
    : text;
}

export function createTracer(sink: (line: string) => void, secrets: SecretValues): Tracer {
  const emit = (line: string) => sink(oneLine(secrets.scrub(line)));
  const headerLines = (mark: string, headers: Record<string, string>) => {
    for (const [name, value] of Object.entries(headers)) emit(`${mark} ${name}: ${redactHeader(name, value)}`);
  };
  return {
    request(method, url, headers, body) {
      emit(`> ${method} ${redactUrl(url)}`);
      headerLines('>', headers);
      const text = formatBody(body);
      if (text !== undefined) emit(`> ${text}`);
    },
    response(status, statusText, ms, headers, body) {
      emit(`< ${status} ${statusText} (${Math.round(ms)} ms)`);
      headerLines('<', headers);
      const text = formatBody(body);
      if (text !== undefined) emit(`< ${text}`);
    },
    note(text) {
      emit(`* ${text}`);
    },
  };
}
