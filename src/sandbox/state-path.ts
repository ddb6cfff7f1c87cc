// Where the embedded sandbox keeps its state. Light (Node built-ins only): the main
// bundle names it (`bo sandbox users` says which sandbox it used) without the sandbox.

import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultStatePath(env: Record<string, string | undefined>): string {
  const dir = env.BO_DATA_DIR || (env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'bo') : join(env.HOME || homedir(), '.local', 'share', 'bo'));
  return join(dir, 'sandbox-state.json');
}
