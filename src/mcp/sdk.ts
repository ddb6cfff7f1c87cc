// The only file that loads the MCP SDK (@modelcontextprotocol/server): scripts/build.mjs
// keeps it out of dist/bo.cjs as the lazy group `mcp`, so no other command loads it.
// It imports nothing of src/: a project error class must never cross from a lazy
// chunk into the main bundle (its copy of the class would differ), so this file only
// speaks the protocol and hands plain objects to the handlers bo gives it.
//
// The stdio framing is bo's own (LineTransport below), not the SDK's transport: every
// line gets an answer (a line that is not JSON a parse error, a batch or a malformed
// message an invalid request), and requests are read only while what bo has not yet
// written stays under a bound, so a client that never reads cannot grow bo's memory.

import { Server, parseJSONRPCMessage, type CallToolResult, type JSONRPCMessage, type ListToolsResult, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** One tool as tools/list shows it. */
export interface ToolListing {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** What a tools/call returns: bo builds it, the SDK sends it. */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface ServeOptions {
  name: string;
  version: string;
  instructions: string;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Ends the server as stdin closing does (Ctrl-C). */
  signal: AbortSignal;
  tools: () => ToolListing[];
  /**
   * `signal` aborts when the client cancels the call (notifications/cancelled) or the server
   * closes; `client` is the client's name as its initialize request gave it (clientInfo.name).
   */
  call: (name: string, args: Record<string, unknown>, signal: AbortSignal, client: string | undefined) => Promise<ToolResult>;
  /** Protocol errors that reach no request (reported on stderr by the caller). */
  onError: (message: string) => void;
}

/** Serves until stdin ends (the client left), stdout fails, or the signal aborts; resolves then. */
export function serveTools(options: ServeOptions): Promise<void> {
  const transport = new LineTransport(options.stdin, options.stdout);
  const factory = () => {
    const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {} }, instructions: options.instructions });
    server.setRequestHandler('tools/list', async () => ({ tools: options.tools() }) as ListToolsResult);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: parsed } = request.params;
      // The arguments as the client sent them: the SDK's copy loses one named __proto__.
      const args = transport.argumentsOf(ctx.mcpReq.id) ?? parsed ?? {};
      const client = server.getClientVersion()?.name;
      return (await options.call(name, args as Record<string, unknown>, ctx.mcpReq.signal, typeof client === 'string' ? client : undefined)) as CallToolResult;
    });
    return server;
  };
  return new Promise((resolve) => {
    const handle = serveStdio(factory, { transport, onerror: (err) => options.onError(err.message) });
    // The client closed its end, or stdout failed: the transport aborts what is in flight and closes.
    const done = () => void handle.close().finally(resolve);
    transport.closed.then(done, done);
    options.signal.addEventListener('abort', done, { once: true });
  });
}

/** Unwritten output over this many bytes stops the reading of requests until stdout drains. */
const OUTPUT_BOUND = 1024 * 1024;
/** Requests read and not yet answered: at most this many (each holds its answer's memory until then). */
const MAX_IN_FLIGHT = 32;
/** A line longer than this is not kept: it is answered as an invalid request and skipped to its end. */
const MAX_LINE = 10 * 1024 * 1024;

/** Refused lines logged on stderr, at most. */
const MAX_LOGGED = 20;

/** JSON-RPC 2.0's error codes for a line that is no message. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * MCP's stdio framing, one JSON-RPC message a line, with an answer for every line and
 * backpressure both ways: a line is taken from stdin only while stdout holds at most
 * OUTPUT_BOUND unwritten bytes and fewer than MAX_IN_FLIGHT requests wait for their
 * answer; otherwise stdin is paused (the client's writes then block in the pipe) until
 * stdout drains or an answer goes out.
 */
class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Settles once the transport closed: stdin ended, stdout failed, or close() was called. */
  readonly closed: Promise<void>;
  private settle!: () => void;
  /** Bytes read and not yet taken as lines. */
  private pending: Buffer = Buffer.alloc(0);
  /** Skipping the rest of a line over MAX_LINE. */
  private skipping = false;
  /** The ids of requests taken and not yet answered (or cancelled). */
  private readonly inFlight = new Set<string>();
  /** The arguments of each tools/call taken, as JSON.parse read them (every own key), until its handler takes them. */
  private readonly toolArguments = new Map<string, Record<string, unknown>>();
  private isClosed = false;
  private scheduled = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
  ) {
    this.closed = new Promise((resolve) => (this.settle = resolve));
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onInputError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onOutputError);
    this.stdout.on('drain', this.schedule);
    const input = this.stdin as NodeJS.ReadableStream & { readableEnded?: boolean; destroyed?: boolean };
    if (input.readableEnded || input.destroyed) setImmediate(this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.isClosed) throw new Error('the MCP connection is closed');
    if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) {
      this.toolArguments.delete(idKey(message.id));
      if (this.inFlight.delete(idKey(message.id))) this.schedule();
    }
    // Not awaited: what stdout has not taken yet is what the bound on reading counts.
    this.stdout.write(JSON.stringify(message) + '\n');
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onInputError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdout.off('drain', this.schedule);
    this.stdin.pause();
    this.pending = Buffer.alloc(0);
    this.inFlight.clear();
    this.toolArguments.clear();
    this.onclose?.();
    this.settle();
  }

  /** A tools/call's arguments as sent, once. */
  argumentsOf(id: string | number): Record<string, unknown> | undefined {
    const args = this.toolArguments.get(idKey(id));
    this.toolArguments.delete(idKey(id));
    return args;
  }

  private readonly onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.pending = this.pending.length === 0 ? bytes : Buffer.concat([this.pending, bytes]);
    this.take();
  };

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onEnd = () => void this.close();

  private readonly onOutputError = (error: Error) => {
    if (this.isClosed) return;
    this.onerror?.(error);
    void this.close();
  };

  /** Takes lines again on the next turn (after a drain or an answer), never from inside send. */
  private readonly schedule = () => {
    if (this.scheduled || this.isClosed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.take();
    });
  };

  private full(): boolean {
    const out = this.stdout as NodeJS.WritableStream & { writableLength?: number };
    return (out.writableLength ?? 0) > OUTPUT_BOUND || this.inFlight.size >= MAX_IN_FLIGHT;
  }

  /** Each whole line read, while there is room; stdin paused while a line waits, resumed once all are taken. */
  private take(): void {
    while (!this.isClosed) {
      const end = this.pending.indexOf(0x0a);
      if (end === -1) break;
      if (this.full()) {
        this.stdin.pause();
        return;
      }
      const line = this.pending.subarray(0, end);
      this.pending = this.pending.subarray(end + 1);
      if (this.skipping) this.skipping = false;
      else this.line(line.toString('utf8'));
    }
    if (this.isClosed) return;
    if (this.pending.length > MAX_LINE) {
      this.pending = Buffer.alloc(0);
      if (!this.skipping) this.refuse(INVALID_REQUEST, `Invalid Request: a message over ${MAX_LINE / 1024 / 1024} MiB`, null);
      this.skipping = true;
    }
    this.stdin.resume();
  }

  /** One line: a message handed on, or the error JSON-RPC names for it. */
  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(PARSE_ERROR, 'Parse error: a line that is not JSON', null);
      return;
    }
    if (Array.isArray(value)) {
      // MCP (2025-06-18 on) sends one message a line; a JSON-RPC batch is not one.
      this.refuse(INVALID_REQUEST, 'Invalid Request: a JSON-RPC batch (send one message a line)', null);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      const object = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
      // A malformed answer (to a request bo never made) gets none.
      if (!('method' in object) && ('result' in object || 'error' in object)) {
        if (++this.refused <= MAX_LOGGED) this.onerror?.(new Error('a malformed response from the client was dropped'));
        return;
      }
      const id = typeof object.id === 'string' || (typeof object.id === 'number' && Number.isFinite(object.id)) ? object.id : null;
      this.refuse(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request or notification', id);
      return;
    }
    if ('method' in message && 'id' in message && message.id !== undefined) {
      this.inFlight.add(idKey(message.id));
      const args = (value as { params?: { arguments?: unknown } }).params?.arguments;
      if (message.method === 'tools/call' && args !== null && typeof args === 'object' && !Array.isArray(args)) this.toolArguments.set(idKey(message.id), args as Record<string, unknown>);
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      // A cancelled request is not answered.
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.inFlight.delete(idKey(cancelled));
    }
    this.onmessage?.(message);
  }

  /** The first lines refused are logged; a client that floods them does not fill stderr (which it may not read either). */
  private refused = 0;

  private refuse(code: number, message: string, id: string | number | null): void {
    this.refused++;
    if (this.refused <= MAX_LOGGED) this.onerror?.(new Error(`${message.replace(/^[^:]*: /, '')}: answered with error ${code}`));
    if (this.refused === MAX_LOGGED) this.onerror?.(new Error(`${MAX_LOGGED} lines refused: further ones are answered and not logged`));
    this.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n');
  }
}

function idKey(id: string | number): string {
  return `${typeof id}:${id}`;
}
