// A named pipe (mkfifo) in a fresh temp folder, removed after the test.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempConfig } from './config-dir.js';

export function mkfifoSync(name = 'fifo'): string {
  const path = join(tempConfig().root, name);
  execFileSync('mkfifo', [path]);
  return path;
}
