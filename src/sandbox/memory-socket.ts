// Two connected in-memory ends, each shaped enough like a net.Socket for node:http's
// client (Agent, ClientRequest) and server (connectionListener) to speak HTTP/1.1 over
// them. The embedded sandbox of `bo --sandbox` uses a pair instead of a loopback socket:
// nothing listens and nothing connects, so net's listen path (which loads cluster,
// child_process, dgram and dns) is never loaded and no port is opened (embedded.ts).
// Both sides still parse and write real HTTP, so the client's core (http.ts) runs as
// it does against a served sandbox.

import { Duplex } from 'node:stream';

export class MemorySocket extends Duplex {
  peer!: MemorySocket;
  /** As a net.Socket once connected: node:http and http-attempt.ts read it. */
  readonly connecting = false;
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';

  constructor() {
    // As net.Server makes them for node:http: each direction ends on its own.
    super({ allowHalfOpen: true });
  }

  override _read(): void {
    // Data is pushed by the peer as it is written.
  }

  // What one end writes reaches the other on a later tick, in order, as from a socket:
  // never inside the writer's own call (a server's res.end() does not run the client's
  // response handlers before it returns).
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    process.nextTick(deliver, this.peer, chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    process.nextTick(deliver, this.peer, null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // As a TCP reset: after what was already written, the other end ends and closes
    // too (its reader sees a cut-short message, not a hang).
    process.nextTick(reset, this.peer);
    callback(error);
  }

  // What node:http calls on a net.Socket; a memory pipe has no timers, keep-alive
  // probes, Nagle or event-loop handle of its own.
  setTimeout(_ms: number, listener?: () => void): this {
    if (listener) this.once('timeout', listener);
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  address(): { address: string; family: string; port: number } {
    return { address: '127.0.0.1', family: 'IPv4', port: 0 };
  }
  destroySoon(): void {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }
}

function deliver(to: MemorySocket, chunk: Buffer | null): void {
  if (!to.destroyed) to.push(chunk);
}

function reset(end: MemorySocket): void {
  if (end.destroyed) return;
  end.push(null);
  end.destroy();
}

/** [client end, server end]. */
export function memorySocketPair(): [MemorySocket, MemorySocket] {
  const a = new MemorySocket();
  const b = new MemorySocket();
  a.peer = b;
  b.peer = a;
  return [a, b];
}
