// startMcp(argv, env): the built `bo … mcp` as a real process, driven by the MCP SDK's
// own client over its stdin and stdout (rawMcp: the same process driven by raw lines, for
// what no well-behaved client sends). Every byte bo writes to stdout and stderr is
// kept, so a test can scan all of it (no secret in any message); `exited` resolves with
// the exit code once the process ends.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { binPath } from './run-bin.js';

/** A tools/call result as the SDK client returns it. */
export interface CallResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, any>;
  _meta?: Record<string, unknown>;
}

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
export function startMcp(argv: string[], env: Record<string, string | undefined>, node = process.execPath): Promise<McpRun> {
  return startMcpServer(node, [binPath, ...argv], env);
}

/** The server as a client configuration names it: `command` and `args`, as they are. */
export async function startMcpServer(command: string, args: string[], env: Record<string, string | undefined>): Promise<McpRun> {
  const child = spawn(command, args, { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** Raw servers still running when a file's tests end (one that failed midway): ended by endRawMcps() in its afterAll. */
const started: ChildProcessWithoutNullStreams[] = [];
export function endRawMcps(): void {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
export const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
export const ping = (id: number | string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

/** `bo … mcp` with raw lines on stdin: each answer line bo writes, read by `parse` (JSON.parse), in order. */
export function rawMcp(argv: string[], env: Record<string, string>, parse: (line: string) => Record<string, any> = JSON.parse) {
  const child = spawn(process.execPath, [binPath, ...argv], { env, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams;
  started.push(child);
  const answers: Array<Record<string, any>> = [];
  const waiting: Array<() => void> = [];
  let rest = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    rest += text;
    for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n')) {
      answers.push(parse(rest.slice(0, end)));
      rest = rest.slice(end + 1);
    }
    for (const wake of waiting.splice(0)) wake();
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let read = 0;
  return {
    child,
    send: (...lines: string[]) => child.stdin.write(lines.map((l) => `${l}\n`).join('')),
    /** The next answer bo writes; none within `boundMs` (a bound against a hang, so generous) fails. */
    async next(boundMs = 30_000): Promise<Record<string, any>> {
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer from bo mcp within ${boundMs / 1000} s`)), boundMs)));
      try {
        while (answers.length <= read) await Promise.race([new Promise<void>((wake) => waiting.push(wake)), hang]);
      } finally {
        clearTimeout(timer);
      }
      return answers[read++]!;
    },
    /** Answers written and not yet taken by next(). */
    unread: () => answers.length - read,
    stderr: () => stderr,
    close: async () => {
      child.stdin.end();
      return exited;
    },
  };
}
