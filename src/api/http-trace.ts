// The trace layer of the HTTP core (http.ts): under --verbose, each attempt's request
// before it is sent and its answer once it came, with the time it took (trace.ts
// writes them, redacted). Without a trace it adds nothing: an answer's body is parsed
// only when read, so a page kept as bytes is never parsed here.

import type { Attempt, Send } from './http-request.js';
import { parseBody, type ParsedBody } from './response-errors.js';
import type { TracedBody, Tracer } from './trace.js';

function traced(body: ParsedBody): TracedBody {
  if (body.kind === 'json') return { json: body.value };
  if (body.kind === 'empty') return undefined;
  return { text: body.text };
}

export function tracing(send: Send, tracer: Tracer | undefined): Attempt {
  if (!tracer) return async (request) => ({ raw: await send(request) });
  return async (request) => {
    tracer.request(request.method, request.url, request.headers, request.value === undefined ? undefined : { json: request.value });
    // Not performance.now(): its first use loads perf_hooks, ~1 ms of every command (Node 20).
    const started = process.hrtime.bigint();
    const raw = await send(request);
    const parsed = parseBody(raw.status, raw.headers, raw.body);
    tracer.response(raw.status, raw.statusText, Number(process.hrtime.bigint() - started) / 1e6, raw.headers, traced(parsed));
    return { raw, parsed };
  };
}
