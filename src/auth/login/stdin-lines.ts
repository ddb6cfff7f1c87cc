// Lines of stdin, read lazily and one at a time: --password-stdin takes the first,
// --recovery-code-stdin the next. Nothing touches stdin unless one of them asks.

import { createInterface, type Interface } from 'node:readline';

export interface LineSource {
  next(): Promise<string | null>;
  close(): void;
}

export function stdinLines(stream: NodeJS.ReadableStream): LineSource {
  let rl: Interface | undefined;
  let it: AsyncIterator<string> | undefined;
  return {
    async next() {
      if (!it) {
        rl = createInterface({ input: stream, crlfDelay: Infinity, terminal: false });
        it = rl[Symbol.asyncIterator]();
      }
      const r = await it.next();
      return r.done ? null : r.value;
    },
    close() {
      rl?.close();
    },
  };
}
