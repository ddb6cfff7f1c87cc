// terminal(): a terminal for the in-process prompter: stdin a person types on (one write
// per key, as a terminal sends them), stdout and stderr collected, every stream a TTY.
// Waits are on what the screen shows, never on a fixed delay, so a loaded machine only
// makes a test slower.
import type { PassThrough } from 'node:stream';
import type { Io } from '../../src/context.js';
import { memoryStreams } from './run-bo.js';

export interface Terminal {
  io: Io;
  stdin: PassThrough;
  stdout(): string;
  stderr(): string;
  /** Types each key in a write of its own, 30 ms apart, as a person would. */
  type(...keys: string[]): Promise<void>;
  /** Stderr once `shows(stderr)` holds, or as it is after 20 s: the test's own assertions then say what is missing. */
  waitFor(shows: (screen: string) => boolean): Promise<string>;
}

/** The text of the screen: escape sequences (colours, cursor moves) removed. */
export const visible = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

export function terminal(): Terminal {
  const { stdin, stdout, stderr, out, err } = memoryStreams();
  const io: Io = { stdin, stdout, stderr, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, env: {} };
  return {
    io,
    stdin,
    stdout: out,
    stderr: err,
    type: async (...keys) => {
      for (const key of keys) {
        await pause(30);
        stdin.write(key);
      }
    },
    waitFor: async (shows) => {
      const deadline = Date.now() + 20_000;
      while (!shows(err()) && Date.now() < deadline) await pause(10);
      return err();
    },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `p`, or a rejection naming a prompt that never answered (a generous bound: it proves no hang). */
export function answered<T>(p: Promise<T>, ms = 20_000): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('the prompt never answered')), ms).unref())]);
}
