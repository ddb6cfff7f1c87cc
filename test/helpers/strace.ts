// Whether strace runs here: the tests that count system calls of the built binary
// (sockets, opened files) are skipped without it.
import { execFileSync } from 'node:child_process';

export const hasStrace = (() => {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
