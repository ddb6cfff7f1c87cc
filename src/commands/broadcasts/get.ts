import { defineCommand } from '../../command.js';

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

export default defineCommand({
  path: ['broadcasts', 'get'],
  summary: 'Show one broadcast campaign by Uid (exit 3 when absent)',
  description: 'Show one broadcast campaign. Its Status prints with its name, e.g. "3 Sent"; --json prints the record as the API sent it.',
  examples: ['bo broadcasts get bc_123', 'bo broadcasts get bc_123 --json | jq .Message.Subject'],
  configure: (cmd) => cmd.argument('<broadcastUid>', 'the broadcast campaign Uid'),
  run: async (ctx, [uid]) => {
    const [{ checkUid }, { getBroadcast }, { printRecord }, { ApiError, NotFoundError }] = await Promise.all([
      import('../../input/validate.js'),
      import('../../api/email.js'),
      import('../../output/print.js'),
      import('../../output/errors.js'),
    ]);
    const broadcastUid = checkUid('<broadcastUid>', uid as string);
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
    const dated = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) ? 'date' : 'text');
    await printRecord(
      ctx,
      broadcast,
      Object.entries(broadcast).map(([k, v]) => (k === 'Status' ? [k, broadcastStatus(v)] : [k, v, dated(v)])),
    );
  },
});
