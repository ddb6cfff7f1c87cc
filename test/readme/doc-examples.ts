// The examples of the README and docs/ as a test reads them. Every fenced ```sh block is
// run as written, a block at a time through one bash (so a variable one line sets is
// there for the next), each line's exit code and output kept apart, unless marked:
//
//   <!-- not run: <reason> -->    on the line before the fence: the whole block is not run
//   some command   # not run: <reason>    that line is not run
//   some command   # → exit 3             that line must end with 3 (else 0)
//
// A ```console block is a transcript: `$ <command>` lines run like the above, and every
// other line must appear in what that command printed (stdout and stderr, spaces folded).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ExampleLine {
  /** The command as bash runs it (continuation lines joined). */
  command: string;
  /** 1-based line of the file where it starts. */
  line: number;
  exit: number;
  /** Why it is not run, when marked. */
  notRun?: string;
  /** Lines a transcript shows as its output. */
  shows: string[];
}

export interface ExampleBlock {
  kind: 'sh' | 'console';
  line: number;
  notRun?: string;
  lines: ExampleLine[];
}

const NOT_RUN = /#.*\bnot run: (.+)$/;
const EXIT = /#.*→ exit (\d+)/;

function parseLine(command: string, line: number): ExampleLine {
  const notRun = NOT_RUN.exec(command)?.[1]?.trim();
  const exit = Number(EXIT.exec(command)?.[1] ?? 0);
  return { command, line, exit, ...(notRun ? { notRun } : {}), shows: [] };
}

/** The ```sh and ```console blocks of a Markdown text, in order. */
export function exampleBlocks(markdown: string): ExampleBlock[] {
  const lines = markdown.split('\n');
  const blocks: ExampleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const kind = fence[1];
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    if (end >= lines.length) throw new Error(`the block at line ${i + 1} is not closed`);
    if (kind === 'sh' || kind === 'console') {
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const blockNotRun = /<!-- not run: (.+?) -->/.exec(lines[before] ?? '')?.[1];
      const block: ExampleBlock = { kind, line: i + 1, lines: [], ...(blockNotRun ? { notRun: blockNotRun } : {}) };
      let current = '';
      let startLine = 0;
      for (let j = i + 1; j < end; j++) {
        const text = lines[j]!.replace(/^\s+/, (s) => s.slice(0, Math.max(0, s.length - indentOf(lines[i]!))));
        if (kind === 'console') {
          if (text.startsWith('$ ')) block.lines.push(parseLine(text.slice(2).trim(), j + 1));
          else if (text.trim() !== '') block.lines.at(-1)?.shows.push(text.trim());
          continue;
        }
        if (current === '' && (text.trim() === '' || text.trim().startsWith('#'))) continue;
        if (current === '') startLine = j + 1;
        if (text.endsWith('\\')) {
          current += `${text.slice(0, -1)}`;
          continue;
        }
        block.lines.push(parseLine((current + text).trim(), startLine));
        current = '';
      }
      if (current !== '') throw new Error(`the last command of the block at line ${i + 1} ends in a backslash`);
      blocks.push(block);
    }
    i = end;
  }
  return blocks;
}

function indentOf(line: string): number {
  return /^\s*/.exec(line)![0].length;
}

export interface LineRun {
  example: ExampleLine;
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one block's lines that are not marked, in order, through one `bash -o pipefail`
 * in `cwd`: each line's output goes to files of its own, its exit code is kept, and
 * after each line `reapply` runs (the test tenant's variables, which a line such as
 * `export BO_BASE_URL=https://acme.example.com` stands for).
 */
export function runBlock(
  block: ExampleBlock,
  options: { cwd: string; env: Record<string, string>; reapply: string; timeoutMs: number },
): Promise<LineRun[]> {
  const lines = block.lines.filter((l) => !l.notRun);
  const dir = mkdtempSync(join(tmpdir(), 'bo-doc-block-'));
  const script = lines
    .map((l, n) => `{\n${l.command}\n} </dev/null >"${dir}/out.${n}" 2>"${dir}/err.${n}"; echo $? >"${dir}/rc.${n}"\n${options.reapply}\n`)
    .join('');
  writeFileSync(join(dir, 'script.sh'), script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', join(dir, 'script.sh')], { cwd: options.cwd, env: options.env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const read = (name: string) => {
        try {
          return readFileSync(join(dir, name), 'utf8');
        } catch {
          return '';
        }
      };
      const runs = lines.map((example, n) => ({
        example,
        code: read(`rc.${n}`) === '' ? -1 : Number(read(`rc.${n}`).trim()),
        stdout: read(`out.${n}`),
        stderr: read(`err.${n}`),
      }));
      rmSync(dir, { recursive: true, force: true });
      resolve(runs);
    });
  });
}

/** What is wrong with one line's run, or null: its exit code, and what a transcript shows. */
export function judge(run: LineRun): string | null {
  const { example } = run;
  const said = `${run.stdout}\n${run.stderr}`;
  const where = `line ${example.line}: \`${example.command}\``;
  if (run.code !== example.exit) return `${where} exited ${run.code}, the text says ${example.exit}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  const fold = (s: string) => s.replace(/\s+/g, ' ').trim();
  for (const shown of example.shows) {
    if (!fold(said).includes(fold(shown))) return `${where} did not print "${shown}"\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  }
  if (/^No records\.$/m.test(said) && !/No records/.test(example.command + example.shows.join('\n'))) {
    return `${where} printed "No records.": an example should show something\nstderr:\n${run.stderr}`;
  }
  return null;
}
