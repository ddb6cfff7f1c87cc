// The README's tour as a test reads it: the commands of the first ```sh block under a
// heading, in order, each run through bash (pipefail) with the built `bo` on PATH, so
// the README and the test cannot drift apart.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The commands of the first ```sh block after the `## <heading…>` line, before the next
 * `## ` heading: a line ending in `\` continues on the next; blank lines and whole-line
 * `#` comments are skipped (a comment after a command stays: bash ignores it).
 */
export function tourCommands(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## ${heading}`));
  if (start < 0) throw new Error(`no "## ${heading}" heading`);
  let i = start + 1;
  while (i < lines.length && !lines[i]!.startsWith('## ') && lines[i]!.trim() !== '```sh') i++;
  if (i >= lines.length || lines[i]!.startsWith('## ')) throw new Error(`no \`\`\`sh block under "## ${heading}"`);
  const commands: string[] = [];
  let current = '';
  for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) {
    const line = lines[i]!;
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1);
      continue;
    }
    commands.push((current + line).trim());
    current = '';
  }
  if (i >= lines.length) throw new Error(`the \`\`\`sh block under "## ${heading}" is not closed`);
  if (current !== '') throw new Error(`the last command under "## ${heading}" ends in a backslash`);
  return commands;
}

export interface CommandRun {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs one command line through `bash -o pipefail -c`, killed after timeoutMs. */
export function runCommand(command: string, options: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ command, code, signal, stdout, stderr });
    });
  });
}

/** Runs the commands in order and stops at the first that does not exit 0. */
export async function runInOrder(
  commands: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<{ runs: CommandRun[]; failed: CommandRun | null }> {
  const runs: CommandRun[] = [];
  for (const command of commands) {
    const run = await runCommand(command, options);
    runs.push(run);
    if (run.code !== 0) return { runs, failed: run };
  }
  return { runs, failed: null };
}

/** A folder holding a `bo` that runs the built binary (bin/bo.js → dist/), for PATH. */
export function boOnPath(folder: string, repoRoot: string): string {
  mkdirSync(folder, { recursive: true });
  const shim = join(folder, 'bo');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${join(repoRoot, 'bin', 'bo.js')}' "$@"\n`);
  chmodSync(shim, 0o755);
  return folder;
}

/**
 * A Secret Service of its own (.ci/keyring.sh: a private D-Bus session and an unlocked
 * gnome-keyring) that lives until close(): what the tour's `bo login` stores never meets
 * another test's keychain items.
 */
export async function privateKeyring(repoRoot: string): Promise<{ env: Record<string, string>; close: () => Promise<void> }> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
  const script = 'printf "%s\\n%s\\n" "$DBUS_SESSION_BUS_ADDRESS" "$XDG_RUNTIME_DIR"; read -r _';
  const child = spawn('bash', [join(repoRoot, '.ci', 'keyring.sh'), 'bash', '-c', script], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`.ci/keyring.sh did not start in 20 s:\n${errors}`)), 20_000);
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      lines.push(line);
      if (lines.length === 2) {
        clearTimeout(timer);
        rl.close();
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`.ci/keyring.sh exited (${code}):\n${errors}`)));
  });
  const [bus, runtime] = lines as [string, string];
  if (!bus) throw new Error(`.ci/keyring.sh gave no D-Bus address:\n${errors}`);
  return {
    env: { DBUS_SESSION_BUS_ADDRESS: bus, XDG_RUNTIME_DIR: runtime },
    close: async () => {
      child.stdin.end('\n');
      await exited;
    },
  };
}
