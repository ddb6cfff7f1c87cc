// Another process holding `<file>.lock` for `ms`, written in the lock's own format
// (src/files/locked-file.ts): what a second `bo` writing the same file looks like.
import { spawn } from 'node:child_process';

/** Resolves once the other process holds the lock; it lets go after `ms`. */
export function holdLock(file: string, ms: number): Promise<void> {
  const script = `
    const fs = require('node:fs');
    fs.writeFileSync(process.argv[1] + '.lock', process.pid + ' ' + Date.now() + ' held', { flag: 'wx' });
    process.stdout.write('held\\n');
    setTimeout(() => fs.unlinkSync(process.argv[1] + '.lock'), ${ms});`;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', () => resolve()));
}
