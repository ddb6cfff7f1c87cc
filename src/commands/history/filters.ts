// What `bo history list` and `bo history show` share: --since, --failed, the journal
// folder in effect, and the note when the journal is off.

import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { option } from '../../input/declare.js';
import { checkDate } from '../../input/date.js';
import { journalOff } from '../../journal/open.js';
import { journalFolder } from '../../journal/read.js';
import { say } from '../../output/print.js';

/** --since and --failed (`failed`: what it keeps), as declared. */
export function historyOptions<const F extends string>(failed: F) {
  return [
    option.text('--since <when>', 'only runs started since then: a date, a date-time with a zone, or a duration such as 2h or 7d'),
    option.switch('--failed', failed),
  ] as const;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** --since as an instant: `7d` (ago), `2026-11-01` (the start of that day, UTC) or a date-time. */
export function sinceOf(text: string, now: Date): Date {
  const duration = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNIT_MS[duration[2]!]!);
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(text.trim());
  try {
    const instant = new Date(checkDate('--since', text));
    // A bare date means that whole day: from its start.
    return bare ? new Date(instant.getTime() - 86_399_000) : instant;
  } catch {
    throw new UsageError(`--since must be a date (YYYY-MM-DD), a date-time with a zone, or a duration such as 30m, 2h, 7d or 2w, not ${JSON.stringify(text)}`);
  }
}

/** The journal folder, after saying on stderr when new changes are not being journaled. */
export async function historyFolder(ctx: Context): Promise<string | undefined> {
  const { name, settings } = await ctx.profile();
  if (journalOff(ctx.io.env, settings.journal)) {
    const why = ctx.io.env.BO_JOURNAL !== undefined && settings.journal !== 'off' ? 'BO_JOURNAL=off' : `journal off for profile "${name}"`;
    say(ctx, `The journal is off (${why}): new changes are not recorded.`);
  }
  const folder = journalFolder(ctx.io.env);
  if (folder === undefined) say(ctx, 'No state folder (set BO_STATE_DIR, or HOME): there is no journal.');
  return folder;
}
