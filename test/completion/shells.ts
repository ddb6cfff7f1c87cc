// Runs completion scripts in real bash, zsh and fish and returns what each offers for
// some command lines: one list of candidates per line (descriptions dropped unless
// asked for). All lines of a call run in one shell process, in a scratch folder that
// holds a few files for file-name completion (the scripts themselves sit outside it).

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bashQuote as q } from '../../src/completion/bash.js';
import { fishQuote } from '../../src/completion/fish.js';

export type ShellName = 'bash' | 'zsh' | 'fish';

export interface Completions {
  /** The candidates, sorted, per line. */
  words: string[][];
  /** The raw records (`word -- description` for zsh and fish). */
  raw: string[][];
  /** The files in the scratch folder after the run (to catch injected commands). */
  files: string[];
}

const SCRATCH_FILES = ['notes.txt', 'state.json'];
const SCRATCH_DIRS = ['sub'];
/** What is in the scratch folder where the shells run: file-name completion offers these. */
export const SCRATCH = [...SCRATCH_FILES, ...SCRATCH_DIRS].sort();

/** Variables for the shells (and any `bo` they run), e.g. PATH and BO_CONFIG_DIR. */
type Env = Record<string, string>;

function exec(file: string, args: string[], cwd: string, extraEnv: Env = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(cwd, '..'), TERM: 'xterm', LANG: 'C.UTF-8', ...extraEnv };
    execFile(file, args, { cwd, env, timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const RS = '\x1e';

function records(text: string): string[][] {
  const parts = text.split(`${RS}\n`);
  parts.pop(); // after the last separator
  return parts.map((p) => p.split('\n').filter((l) => l !== ''));
}

/**
 * Readline's split of a line into COMP_WORDS: at blanks, and a run of "=", "@" or ":"
 * (from COMP_WORDBREAKS) as a word of its own.
 */
export function bashWords(line: string): string[] {
  return line.split(/[ \t]+/).flatMap((w) => w.match(/[=@:]+|[^=@:]+/g) ?? ['']);
}

/** The word readline completes, passed as $2: after the last blank, "=" or ":" (not "@"). */
export function readlineWord(line: string): string {
  return /[^ \t=:]*$/.exec(line)![0];
}

async function runBash(dir: string, script: string, lines: string[], env: Env): Promise<string> {
  writeFileSync(join(dir, '..', 'bo.bash'), script);
  // Calls the function registered by `complete -p bo`, as bash does on TAB.
  const driver = [
    'source ../bo.bash',
    'spec=$(complete -p bo); fn=${spec##*-F }; fn=${fn%% *}',
    'query() {',
    '  COMP_LINE=$1; COMP_POINT=${#1}; local word=$2; shift 2',
    '  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()',
    '  "$fn" bo "$word" "${COMP_WORDS[COMP_CWORD-1]}"',
    `  printf '%s\\n' "\${COMPREPLY[@]}"; printf '${RS}\\n'`,
    '}',
    ...lines.map((l) => `query ${q(l)} ${q(readlineWord(l))} ${bashWords(l).map(q).join(' ')}`),
  ].join('\n');
  writeFileSync(join(dir, '..', 'driver.bash'), driver);
  return exec('bash', ['--norc', '--noprofile', '../driver.bash'], dir, env);
}

/** Autoloads `_bo` from fpath, as installed; with `sourced`, as `source <(bo completion zsh)`. */
async function runZsh(dir: string, script: string, lines: string[], env: Env, sourced = false): Promise<string> {
  const fpath = join(dir, '..', 'fpath');
  mkdirSync(fpath);
  writeFileSync(join(fpath, '_bo'), script);
  const capture = fileURLToPath(new URL('./zsh-capture.zsh', import.meta.url));
  const load = sourced ? join(fpath, '_bo') : fpath;
  await exec('zsh', ['-f', capture, load, join(dir, '..', 'out'), ...lines], dir, env);
  return readFileSync(join(dir, '..', 'out'), 'utf8');
}

async function runFish(dir: string, script: string, lines: string[], env: Env): Promise<string> {
  writeFileSync(join(dir, '..', 'bo.fish'), script);
  const driver = [
    'source ../bo.fish',
    ...lines.map((l) => `complete -C ${fishQuote(l)}; printf '${RS}\\n'`),
  ].join('\n');
  writeFileSync(join(dir, '..', 'driver.fish'), driver);
  return exec('fish', ['--no-config', '../driver.fish'], dir, env);
}

/**
 * Types each line into an interactive bash with the script loaded, presses TAB, and
 * returns the edited lines: what readline itself made of the completion.
 */
export async function typeInBash(script: string, lines: string[], env: Env = {}): Promise<string[]> {
  return inScratch(async (dir) => {
    writeFileSync(join(dir, '..', 'bo.bash'), script);
    const keys = fileURLToPath(new URL('./bash-readline.zsh', import.meta.url));
    const out = await exec('zsh', ['-f', keys, 'source ../bo.bash', ...lines], dir, env);
    return out.split('\n').slice(0, lines.length);
  });
}

async function inScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), 'bo-completion-'));
  const dir = join(root, 'work');
  mkdirSync(dir);
  try {
    for (const f of SCRATCH_FILES) writeFileSync(join(dir, f), '');
    for (const d of SCRATCH_DIRS) mkdirSync(join(dir, d));
    return await work(dir);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function complete(
  shell: ShellName | 'zsh-sourced',
  script: string,
  lines: string[],
  env: Env = {},
): Promise<Completions> {
  return inScratch(async (dir) => {
    const run = {
      bash: runBash,
      zsh: runZsh,
      'zsh-sourced': (d: string, s: string, l: string[], e: Env) => runZsh(d, s, l, e, true),
      fish: runFish,
    }[shell];
    const raw = records(await run(dir, script, lines, env));
    const words = raw.map((r) =>
      r.map((l) => l.split(shell === 'fish' ? '\t' : ' -- ')[0]!.replace(/\/$/, '')).sort(),
    );
    return { words, raw, files: readdirSync(dir).sort() };
  });
}
