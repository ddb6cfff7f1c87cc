// `bo mcp install` and `bo mcp status`: bo's server entry in an MCP client's own
// configuration file, rendered from the one table of client forms (mcp/clients.ts). The
// entry names this bo by absolute path (the single executable, or node and bin/bo.js of
// an npm install), the profile, and `--writes plan` only when asked. Installing changes
// bo's entry alone: the file is read with its comments (mcp/jsonc.ts) and only that
// member's bytes change; a file bo cannot read is left as it is (exit 2). The file is
// written atomically, keeps its mode, and a copy of it as it was before bo first changed
// it is kept beside it (`.bak`); a link that leads out of the client's folder is not
// followed. Nothing of a credential is ever written: the entry holds a command line only.

import { spawnSync } from 'node:child_process';
import { chmodSync, constants, copyFileSync, existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join, sep } from 'node:path';
import { UsageError, BoError } from '../errors.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { CLIENTS, claudeAddArgs, json, type ClientForm, type ClientId, type Install, type ServerCommand } from './clients.js';
import { JsoncError, memberOf, parseJsonc, setMember, valueOf } from './jsonc.js';

type Env = Record<string, string | undefined>;

export const CLIENT_IDS = CLIENTS.map((c) => c.id) as readonly ClientId[];

/** This bo: the single executable, or node running bin/bo.js (its real path, links resolved). */
export function thisBo(): Install {
  const sea = (process.getBuiltinModule('node:sea') as typeof import('node:sea') | undefined)?.isSea() ?? false;
  if (sea) return { kind: 'executable', bo: process.execPath };
  const script = process.argv[1];
  if (!script) throw new BoError('bo cannot tell the path of its own bin/bo.js', { code: 'failed' });
  return { kind: 'npm', node: process.execPath, script: realpathSync(script) };
}

/** The client form by id. */
export function clientForm(id: ClientId): ClientForm {
  return CLIENTS.find((c) => c.id === id)!;
}

/** The configuration file of `client` here, or exit 2 saying why there is none. */
export function configFile(client: ClientForm, platform: NodeJS.Platform, env: Env): string {
  const file = client.file(platform, env);
  if (file !== undefined) return file;
  if (client.id === 'claude-desktop' && platform !== 'darwin' && platform !== 'win32') {
    throw new UsageError('there is no Linux build of Claude Desktop: bo mcp install --client claude-desktop works on macOS and Windows');
  }
  throw new UsageError(`the folder of ${client.name}'s configuration is not known: set HOME`);
}

/**
 * The file to read and write for `file`: itself, or where its link leads when that stays
 * inside the client's folder; a link out of it, or something not a file, is refused.
 */
function realTarget(file: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) {
    const folder = realpathSync(dirname(file));
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      throw new UsageError(`${file} is a link to a file that does not exist: it was left as it is`);
    }
    if (!real.startsWith(folder + sep)) throw new UsageError(`${file} is a link out of its folder (to ${real}): bo does not follow it; it was left as it is`);
    if (!statSync(real).isFile()) throw new UsageError(`${file} is not a file: it was left as it is`);
    return real;
  }
  if (!stat.isFile()) throw new UsageError(`${file} is not a file: it was left as it is`);
  return file;
}

/** Line and column of an offset, for a person. */
function lineOf(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** The file's text read as the client's JSON object, or exit 2 naming where it stops being readable. */
function readConfig(file: string, text: string) {
  try {
    const root = parseJsonc(text);
    if (root.kind !== 'object') throw new JsoncError(root.start, 'it holds no JSON object');
    return root;
  } catch (err) {
    if (!(err instanceof JsoncError)) throw err;
    throw new UsageError(`${file} is not a configuration bo can read (${err.why} at ${lineOf(text, err.offset)}): it was left as it is`);
  }
}

export interface Change {
  client: ClientForm;
  file: string;
  /** Where it is written: the file, or where its link leads. */
  target: string;
  before: string | undefined;
  after: string;
}

/** The file with bo's entry `name` set to `server`, every other byte as it was. */
export function changeFor(client: ClientForm, file: string, name: string, server: ServerCommand): Change {
  const target = realTarget(file) ?? file;
  const before = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  const entry = client.entry(server);
  if (before === undefined || before.trim() === '') return { client, file, target, before, after: `${json({ [client.key]: { [name]: entry } })}\n` };
  const root = readConfig(file, before);
  const servers = memberOf(root, client.key);
  // A servers member of another kind (null, a list) is not bo's to replace.
  if (servers && servers.value.kind !== 'object') throw new UsageError(`${file}: "${client.key}" is not an object (at ${lineOf(before, servers.value.start)}): it was left as it is`);
  return { client, file, target, before, after: setMember(before, root, [client.key, name], entry, json) };
}

/** Writes the change: atomically, the file's mode kept, the file as it was kept as `.bak` the first time. */
export function writeChange(change: Change): { backup?: string } {
  try {
    return write(change);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw err;
    throw new BoError(`could not write ${change.file} (${code}): it was left as it was`, { code: 'failed' });
  }
}

function write(change: Change): { backup?: string } {
  const { target, before, after } = change;
  const mode = before === undefined ? undefined : statSync(target).mode & 0o7777;
  let backup: string | undefined;
  if (before !== undefined && !existsSync(`${target}.bak`)) {
    backup = `${target}.bak`;
    copyFileSync(target, backup, constants.COPYFILE_EXCL);
    chmodSync(backup, mode!);
  }
  writeFileAtomic(target, after);
  if (mode !== undefined) chmodSync(target, mode);
  return backup ? { backup } : {};
}

/** The change as lines taken out and put in, with two lines around: what --dry-run prints. */
export function diffText(change: Change): string {
  const lines = (text: string) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const a = change.before === undefined ? [] : lines(change.before);
  const b = lines(change.after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - 2);
  const out = [`--- ${change.file}${change.before === undefined ? ' (new file)' : ''}`, `+++ ${change.file}`, `@@ line ${from + 1} @@`];
  for (const line of a.slice(from, head)) out.push(` ${line}`);
  for (const line of a.slice(head, a.length - tail)) out.push(`-${line}`);
  for (const line of b.slice(head, b.length - tail)) out.push(`+${line}`);
  for (const line of a.slice(a.length - tail, Math.min(a.length, a.length - tail + 2))) out.push(` ${line}`);
  return out.join('\n');
}

/** `claude` on PATH, when it is there: Claude Code's own command adds the entry. */
export function claudeCommand(env: Env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
    try {
      if (statSync(file).isFile() && (process.platform === 'win32' || (statSync(file).mode & 0o111) !== 0)) return file;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** `claude mcp add --scope user <name> -- <command> <args>`, after removing an entry of that name (its failure is no error). */
export function addWithClaude(claude: string, name: string, server: ServerCommand, env: Env): void {
  spawnSync(claude, ['mcp', 'remove', '--scope', 'user', name], { env: env as NodeJS.ProcessEnv, stdio: 'ignore' });
  const r = spawnSync(claude, claudeAddArgs(server, name), { env: env as NodeJS.ProcessEnv, encoding: 'utf8' });
  if (r.status !== 0) throw new BoError(`claude mcp add failed${r.stderr ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`, { code: 'failed' });
}

/** bo's arguments in the entry: the profile (or --sandbox), mcp, and --writes/--tools when asked. */
export function entryArgs(profile: string, sandbox: boolean, writes: string | undefined, tools: string | undefined): string[] {
  return [...(sandbox ? ['--sandbox'] : ['-p', profile]), 'mcp', ...(tools ? ['--tools', tools] : []), ...(writes ? ['--writes', writes] : [])];
}


/** One of bo's entries in a client's configuration, as `bo mcp status` lists it. */
export interface FoundEntry {
  client: string;
  file: string;
  name: string;
  command: string;
  args: string[];
  /** Paths the entry starts that no longer exist (bo moved or removed). */
  missing: string[];
}

/** An entry that starts bo: named bo, or whose program (or node's script) is bo. */
function isBo(name: string, command: string, args: string[]): boolean {
  const base = (p: string) => p.split(/[\\/]/).at(-1)!.toLowerCase();
  return name === 'bo' || ['bo', 'bo.exe'].includes(base(command)) || (args[0] !== undefined && base(args[0]) === 'bo.js');
}

/** The absolute paths an entry starts (its command, and node's script) that are not there. */
function missingPaths(command: string, args: string[]): string[] {
  const absolute = (p: string) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
  return [command, ...(args[0] !== undefined && /bo\.js$/.test(args[0]) ? [args[0]] : [])].filter((p) => absolute(p) && !existsSync(p));
}

/** bo's entries in every client's configuration here; a file that cannot be read is told to `warn` and skipped. */
export function findEntries(platform: NodeJS.Platform, env: Env, warn: (text: string) => void): FoundEntry[] {
  const found: FoundEntry[] = [];
  for (const client of CLIENTS) {
    const file = client.file(platform, env);
    if (file === undefined || !existsSync(file)) continue;
    try {
      const target = realTarget(file);
      if (target === undefined) continue;
      const servers = memberOf(readConfig(file, readFileSync(target, 'utf8')), client.key)?.value;
      if (servers?.kind !== 'object') continue;
      for (const member of servers.members) {
        const entry = valueOf(member.value) as { command?: unknown; args?: unknown };
        if (typeof entry?.command !== 'string') continue;
        const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
        if (!isBo(member.key, entry.command, args)) continue;
        found.push({ client: client.name, file, name: member.key, command: entry.command, args, missing: missingPaths(entry.command, args) });
      }
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      warn(err.message);
    }
  }
  return found;
}
