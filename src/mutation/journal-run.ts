// The journal of a mutation run (src/journal/): opened after the confirmation
// and before the first request, with a header that names the profile, the origin and
// the command as typed, secret values (the verb's `secret` fields) never written.

import { commandWord } from '../journal/command-words.js';
import { fstatSync, readlinkSync } from 'node:fs';
import type { Context } from '../context.js';
import { openJournal, type RunJournal } from '../journal/open.js';
import type { RunHeader } from '../journal/journal.js';
import type { RunLock } from '../journal/run-lock.js';
import type { Where } from './confirm.js';
import { attributeName } from '../input/declare.js';
import type { MutationField, MutationFlags } from './types.js';

/** Opens the run's journal (undefined: off, or a single change that cannot have one); a batch that cannot throws before sending. */
export async function startJournal(ctx: Context, where: Where, header: Omit<RunHeader, 'profile' | 'origin'>, resume?: { run: string; lock: RunLock }): Promise<RunJournal | undefined> {
  const { settings } = await ctx.profile();
  const journal = openJournal({
    env: ctx.io.env,
    setting: settings.journal,
    header: { profile: where.profile, origin: where.origin, ...header, ...(header.batch ? stdinFile(ctx) : {}) },
    now: () => ctx.clock.now(),
    warn: (line) => ctx.io.stderr.write(`${line}\n`),
    signal: ctx.signal,
    ...(resume === undefined ? {} : { resume }),
  });
  if (journal) ctx.journalOpened?.(journal.id);
  return journal;
}

/** The flags a run is not made of: a resume gives its own. */
const NOT_JOURNALED = new Set(['dryRun', 'yes']);

/**
 * The invocation a run stores (invocation.ts, set on the context by invoke()): its target
 * and options but --dry-run and --yes, a secret field's value as `***`.
 */
export function journaledInvocation(ctx: Context, fields: readonly MutationField[]): Pick<RunHeader, 'invocation'> {
  const invocation = ctx.invocation;
  if (!invocation) return {};
  const secret = new Set(fields.filter((f) => f.secret).map((f) => attributeName(f.flag)));
  const values = Object.fromEntries(
    Object.entries(invocation.values)
      .filter(([name]) => !NOT_JOURNALED.has(name))
      .map(([name, value]) => [name, secret.has(name) ? '***' : value]),
  );
  return { invocation: { path: [...invocation.path], values } };
}

/** `accounts extend-trial - --to 2031-01-31`: the verb, its target and the flags given, a secret field's value as `***`. */
export function commandLine(path: string[], label: string, target: string, fields: readonly MutationField[], flags: MutationFlags): string {
  const given = flags as Record<string, unknown>;
  // A target given by an option (`--account acc_1`) is typed after it.
  const words = [...path, ...(label.startsWith('--') ? [label] : []), target];
  for (const f of fields) {
    const name = f.flags.split(' ')[0]!;
    const value = given[attributeName(name)];
    if (value === undefined) continue;
    if (f.form === 'boolean') {
      if (value === true) words.push(name);
    } else if (f.form === 'toggle') words.push(value === false ? name.replace(/^--/, '--no-') : name);
    else words.push(name, f.secret ? '***' : commandWord(String(value)));
  }
  return words.join(' ');
}


/** The batch's input when stdin is a file (`bo … - < records.jsonl`): its path and size, for `bo history`. */
function stdinFile(ctx: Context): Pick<RunHeader, 'input'> {
  if (ctx.io.stdin !== process.stdin) return {};
  try {
    const st = fstatSync(0);
    if (!st.isFile()) return {};
    return { input: { path: readlinkSync('/proc/self/fd/0'), size: st.size } };
  } catch {
    return {};
  }
}
