// strace for the tests of the built binary: whether it runs here (the tests that count
// system calls, sockets or opened files, are skipped without it), and the execve lines of
// an `strace -f -e trace=execve -v` log (runBin's `trace` option): the arguments and
// environment of every process started, strings decoded as C escapes.
import { execFileSync } from 'node:child_process';

export const hasStrace = (() => {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

export interface Exec {
  pid: number;
  argv: string[];
  env: string[];
}

/** One C string as strace prints it: "..." with \" \\ \n \t and octal escapes. */
function readString(text: string, at: number): [string, number] {
  if (text[at] !== '"') throw new Error(`strace: expected a string at ${at}: ${text.slice(at, at + 40)}`);
  const bytes: number[] = [];
  let i = at + 1;
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, a: 7, b: 8, e: 27, '"': 34, '\\': 92 };
  while (text[i] !== '"') {
    const ch = text[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'latin1'));
      i++;
      continue;
    }
    const next = text[i + 1]!;
    if (next in simple) {
      bytes.push(simple[next]!);
      i += 2;
    } else if (next === 'x') {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const m = /^[0-7]{1,3}/.exec(text.slice(i + 1))![0];
      bytes.push(parseInt(m, 8));
      i += 1 + m.length;
    }
  }
  // A trailing "..." means strace cut the string: -s is set high enough that it never does.
  return [Buffer.from(bytes).toString('utf8'), i + 1];
}

function readArray(text: string, at: number): [string[], number] {
  if (text[at] !== '[') throw new Error(`strace: expected an array: ${text.slice(at, at + 40)}`);
  const out: string[] = [];
  let i = at + 1;
  while (text[i] !== ']') {
    if (text.startsWith(', ', i)) i += 2;
    if (text.startsWith('...', i)) throw new Error('strace: array cut short');
    const [s, end] = readString(text, i);
    out.push(s);
    i = end;
  }
  return [out, i + 1];
}

export function parseExecs(trace: string): Exec[] {
  const execs: Exec[] = [];
  for (const line of trace.split('\n')) {
    const m = /^(\d+) +execve\(/.exec(line);
    if (!m || / = -1 /.test(line.slice(-80))) continue;
    const [, afterPath] = readString(line, m[0].length);
    const [argv, afterArgv] = readArray(line, afterPath + 2);
    const [env] = readArray(line, afterArgv + 2);
    execs.push({ pid: Number(m[1]), argv, env });
  }
  return execs;
}
