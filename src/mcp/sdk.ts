// The only file that loads the MCP SDK (@modelcontextprotocol/server): scripts/build.mjs
// keeps it out of dist/bo.cjs as the lazy group `mcp`, so no other command loads it.
// It imports nothing of src/: a project error class must never cross from a lazy
// chunk into the main bundle (its copy of the class would differ), so this file only
// speaks the protocol and hands plain objects to the handlers bo gives it.

import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';

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
  /** `signal` aborts when the client cancels the call (notifications/cancelled) or the server closes. */
  call: (name: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;
  /** Protocol errors that reach no request (reported on stderr by the caller). */
  onError: (message: string) => void;
}

/** Serves until stdin ends (the client left) or the signal aborts; resolves then. */
export function serveTools(options: ServeOptions): Promise<void> {
  const factory = () => {
    const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {} }, instructions: options.instructions });
    server.setRequestHandler('tools/list', async () => ({ tools: options.tools() }) as ListToolsResult);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args } = request.params;
      return (await options.call(name, (args ?? {}) as Record<string, unknown>, ctx.mcpReq.signal)) as CallToolResult;
    });
    return server;
  };
  return new Promise((resolve) => {
    const transport = new StdioServerTransport(options.stdin as never, options.stdout as never);
    const handle = serveStdio(factory, { transport, onerror: (err) => options.onError(err.message) });
    // The client closed its end: the transport aborts what is in flight and closes.
    const done = () => void handle.close().finally(resolve);
    options.stdin.once('end', done);
    options.stdin.once('close', done);
    options.signal.addEventListener('abort', done, { once: true });
  });
}
