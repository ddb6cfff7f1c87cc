import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { drained } from '../../src/output/sink.js';

describe('waiting for stdout to drain', () => {
  it('leaves no listener behind, after a drain or after Ctrl-C', async () => {
    const stream = new PassThrough();
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) {
      const wait = drained(stream, signal);
      stream.emit('drain');
      await wait;
    }
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
    const controller = new AbortController();
    const wait = drained(stream, controller.signal);
    controller.abort();
    await expect(wait).rejects.toBeInstanceOf(InterruptedError);
    expect(stream.listenerCount('drain')).toBe(0);
    expect(stream.listenerCount('close')).toBe(0);
  });
});
