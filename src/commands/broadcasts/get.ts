import { defineCommand } from '../../command.js';
import { checkUid } from '../../input/validate.js';
import { getBroadcast } from '../../api/email.js';
import { printRecord } from '../../output/print.js';
import { ApiError, NotFoundError } from '../../errors.js';
import { operand } from '../../input/declare.js';

/** Broadcast Status labels, from the service's own list of states. */
export const BROADCAST_STATUS: Record<number, string> = {
  1: 'Draft',
  2: 'Pending',
  3: 'Sent',
  4: 'Queuing',
  5: 'Queued',
  6: 'Sending',
  7: 'Error',
  8: 'WaitingToResume',
  9: 'QueuedEmails',
  10: 'Archived',
};

/** `3 Sent`; an unknown code prints as the bare integer. */
export function broadcastStatus(status: unknown): unknown {
  const label = typeof status === 'number' ? BROADCAST_STATUS[status] : undefined;
  return label ? `${status} ${label}` : status;
}

type Pair = [string, unknown, ('text' | 'date' | 'number')?];

function field(record: unknown, name: string): unknown {
  return record && typeof record === 'object' ? (record as Record<string, unknown>)[name] : undefined;
}

/** The fields a person reads, in a sensible order; the whole record is --json. */
export function broadcastPairs(b: Record<string, unknown>): Pair[] {
  const campaign = b.Campaign;
  const message = b.Message;
  const fromName = field(campaign, 'FromName');
  const fromEmail = field(campaign, 'FromEmail');
  const from = [fromName, fromEmail ? `<${String(fromEmail)}>` : undefined].filter((v) => v != null && v !== '').join(' ');
  const tags = Array.isArray(b.Tags) ? b.Tags.map((t) => field(t, 'Name') ?? t).join(', ') : b.Tags;
  const pairs: Pair[] = [
    ['Uid', b.Uid],
    ['Name', field(campaign, 'Name')],
    ['Subject', field(message, 'Subject')],
    ['Status', broadcastStatus(b.Status)],
    ['From', from],
    ['Send at', b.SendDateTime, 'date'],
    ['Next run', b.NextRunDateTime, 'date'],
    ['Lists', b.EmailListUids],
    ['Segments', b.SegmentUids],
    ['Template', b.TemplateUid],
    ['Tags', tags],
  ];
  for (const counter of ['Sent', 'Delivered', 'Open', 'Click', 'Bounce', 'Spam', 'Unsubscribed']) {
    const value = field(message, `Count${counter}`);
    if (value !== undefined && value !== null) pairs.push([counter, value, 'number']);
  }
  if (b.ErrorMessage) pairs.push(['Error', b.ErrorMessage]);
  pairs.push(['Created', b.Created, 'date'], ['Updated', b.Updated, 'date']);
  return pairs;
}

export default defineCommand({
  printsRecords: true,
  path: ['broadcasts', 'get'],
  mcp: 'read',
  summary: 'Show one broadcast campaign by Uid (exit 3 when absent)',
  description: 'Show one broadcast campaign. Its Status prints with its name, e.g. "3 Sent"; --json prints the record as the API sent it.',
  examples: ['bo broadcasts get bcast_lbhuomyvex', 'bo broadcasts get bcast_lbhuomyvex --json | jq .Message.Subject'],
  operands: [operand.uid('<broadcastUid>', 'the broadcast campaign Uid')],
  run: async (ctx, [uid]) => {
    const broadcastUid = checkUid('<broadcastUid>', uid);
    let broadcast;
    try {
      broadcast = await getBroadcast(await ctx.api(), broadcastUid);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        throw new NotFoundError(`no broadcast with Uid ${broadcastUid}`, { status: 404, code: err.code ?? 'not_found' });
      }
      throw err;
    }
    if (!broadcast || typeof broadcast !== 'object' || ctx.globals.json || ctx.globals.jsonl) return printRecord(ctx, broadcast);
    await printRecord(ctx, broadcast, broadcastPairs(broadcast));
  },
});
