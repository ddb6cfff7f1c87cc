// startMcp(argv, env): the built `bo … mcp` as a real process, driven by the MCP SDK's
// own client over its stdin and stdout. Every byte bo writes to stdout and stderr is
// kept, so a test can scan all of it (no secret in any message); `exited` resolves with
// the exit code once the process ends.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { binPath } from './run-bin.js';

export interface McpRun {
  client: Client;
  /** All of bo's stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Ends bo's stdin, as a client that leaves does. */
  endInput(): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Closes the client (stdin ends) and waits for bo to exit. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node` runs bo (default: the Node running the tests). */
export async function startMcp(argv: string[], env: Record<string, string | undefined>, node = process.execPath): Promise<McpRun> {
  const child = spawn(node, [binPath, ...argv], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const reader = new ReadBuffer();
  const transport: Transport = {
    async start() {
      child.stdout.on('data', (chunk: Buffer) => {
        out.push(chunk);
        reader.append(chunk);
        for (let message = reader.readMessage(); message; message = reader.readMessage()) transport.onmessage?.(message);
      });
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      void exited.then(() => transport.onclose?.());
    },
    async send(message: JSONRPCMessage) {
      child.stdin.write(serializeMessage(message));
    },
    async close() {
      child.stdin.end();
    },
  };
  const client = new Client({ name: 'bo-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
    endInput: () => child.stdin.end(),
    exited,
    close: async () => {
      child.stdin.end();
      return exited;
    },
  };
}
