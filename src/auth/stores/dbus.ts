// A minimal D-Bus client: enough of the wire protocol to call a few methods on the
// session bus over its Unix socket and read the answers. Used for one thing, reading
// bo's item from the Secret Service in-process (src/auth/stores/secret-service.ts),
// where the keyring library needs a helper process (src/auth/stores/keychain.ts).
//
// Everything here is asynchronous socket I/O on Node's event loop: a bus that never
// answers cannot block `bo` or keep it alive; the caller's timer destroys the socket.
// The wire format is dbus-wire.ts; this file holds the connection: the EXTERNAL
// authentication (https://dbus.freedesktop.org/doc/dbus-specification.html), Hello,
// and the answers matched to their calls.

import type { Socket } from 'node:net';
import { DbusError, ERROR, METHOD_RETURN, decode, encodeCall, messageLength, type Call, type DbusValue } from './dbus-wire.js';

export { DbusError, type Call, type DbusValue } from './dbus-wire.js';

/** The socket path of a `unix:path=…` or `unix:abstract=…` session bus address; undefined for any other transport. */
export function unixBusPath(address: string | undefined): string | undefined {
  for (const entry of (address ?? '').split(';')) {
    const m = /^unix:(.*)$/.exec(entry.trim());
    if (!m) continue;
    const keys = new Map((m[1] ?? '').split(',').map((kv) => kv.split('=') as [string, string]));
    const unescape = (v: string) => v.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (keys.get('path')) return unescape(keys.get('path')!);
    if (keys.get('abstract')) return `\0${unescape(keys.get('abstract')!)}`;
  }
  return undefined;
}

/**
 * A connection to a bus over `socket` (already connecting): authenticates with
 * EXTERNAL as this process's uid, says Hello, then answers calls in order.
 */
export class DbusConnection {
  private serial = 0;
  private pending = new Map<number, { resolve(body: DbusValue[]): void; reject(err: Error): void }>();
  private input: Buffer = Buffer.alloc(0);
  private authenticated = false;
  private failure?: Error;

  constructor(private readonly socket: Socket) {
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    // Pipelined, as sd-bus does: the authentication, BEGIN and the first calls go out in
    // one write, without waiting for the bus's OK — one round trip less (the bus answers
    // OK first; a refusal means the calls were never read, and the connection fails).
    socket.cork();
    process.nextTick(() => socket.uncork());
    socket.write(`\0AUTH EXTERNAL ${Buffer.from(String(uid)).toString('hex')}\r\nBEGIN\r\n`, 'latin1');
    socket.on('data', (chunk: Buffer) => {
      try {
        this.receive(chunk);
      } catch (err) {
        this.fail(err as Error);
      }
    });
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new DbusError('the bus closed the connection')));
    // The bus's first message must be Hello; its answer (our unique name) is not needed.
    this.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' }).catch(() => undefined);
  }

  /** Sends a method call; resolves with the reply's body or rejects with a DbusError. */
  call(call: Call): Promise<DbusValue[]> {
    if (this.failure) return Promise.reject(this.failure);
    const serial = ++this.serial;
    const message = encodeCall(serial, call);
    const reply = new Promise<DbusValue[]>((resolve, reject) => this.pending.set(serial, { resolve, reject }));
    this.socket.write(message);
    return reply;
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.input = this.input.length ? Buffer.concat([this.input, chunk]) : chunk;
    if (!this.authenticated) {
      const eol = this.input.indexOf('\r\n');
      if (eol < 0) {
        if (this.input.length > 512) throw new DbusError('unexpected answer to D-Bus authentication');
        return;
      }
      const line = this.input.toString('latin1', 0, eol);
      this.input = this.input.subarray(eol + 2);
      if (!line.startsWith('OK ')) throw new DbusError(`the bus refused authentication (${line.slice(0, 80)})`);
      this.authenticated = true;
    }
    for (;;) {
      const n = messageLength(this.input);
      if (n === 0) return;
      const message = decode(this.input.subarray(0, n));
      this.input = this.input.subarray(n);
      if ((message.type !== METHOD_RETURN && message.type !== ERROR) || message.replySerial === undefined) continue; // signals
      const waiter = this.pending.get(message.replySerial);
      if (!waiter) continue;
      this.pending.delete(message.replySerial);
      if (message.type === ERROR) {
        const text = typeof message.body[0] === 'string' ? message.body[0] : '';
        waiter.reject(new DbusError(`${message.errorName ?? 'error'}${text ? `: ${text}` : ''}`, message.errorName));
      } else {
        waiter.resolve(message.body);
      }
    }
  }

  private fail(err: Error): void {
    if (!this.failure) this.failure = err instanceof DbusError ? err : new DbusError(err.message);
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
    this.socket.destroy();
  }
}
