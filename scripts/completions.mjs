// Writes completions/bo.bash, completions/_bo and completions/bo.fish from the built
// bundle, exactly as `bo completion <shell>` prints them. Runs `bo` in this process
// (no child processes: the build stays fast) and rewrites only files that changed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';

const { run } = await import(new URL('../dist/bo.cjs', import.meta.url).href);
const files = { bash: 'bo.bash', zsh: '_bo', fish: 'bo.fish' };
const dir = new URL('../completions/', import.meta.url);
mkdirSync(dir, { recursive: true });

for (const [shell, name] of Object.entries(files)) {
  let out = '';
  let err = '';
  const sink = (append) => new Writable({ write: (chunk, _enc, done) => (append(String(chunk)), done()) });
  const stdin = new PassThrough();
  stdin.end();
  const io = {
    stdin,
    stdout: sink((s) => (out += s)),
    stderr: sink((s) => (err += s)),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
  };
  const code = await run(['completion', shell], { io });
  if (code !== 0) throw new Error(`bo completion ${shell} failed (exit ${code}): ${err}`);
  const file = new URL(name, dir);
  let old = null;
  try {
    old = readFileSync(file, 'utf8');
  } catch {}
  if (old !== out) writeFileSync(file, out);
}
