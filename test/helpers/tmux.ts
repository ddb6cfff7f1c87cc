// A private tmux server for a test file (its own socket, no user configuration): run
// tmux commands, read a pane's screen, and wait until the screen shows something.
import { execFileSync } from 'node:child_process';

export interface Tmux {
  /** A tmux command on this server; its output. */
  (...args: string[]): string;
  /** The whole pane (its history too), lines joined; `colours`: with the escape codes. */
  screen(session: string, colours?: boolean): string;
  /** Polls the pane until `pattern` shows (bounded), and returns the screen. */
  waitFor(session: string, pattern: RegExp | string, timeoutMs?: number): Promise<string>;
}

export function tmuxServer(socket: string, defaultTimeoutMs = 30_000): Tmux {
  const tmux = ((...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' })) as Tmux;
  tmux.screen = (session, colours = false) => tmux('capture-pane', '-p', '-J', ...(colours ? ['-e'] : []), '-S', '-', '-t', session);
  tmux.waitFor = async (session, pattern, timeoutMs = defaultTimeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = tmux.screen(session);
      if (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return tmux;
}
