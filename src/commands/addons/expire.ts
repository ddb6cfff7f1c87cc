// `bo addons expire <subscriptionAddOnUid>`: ends a running add-on now (D24: expiring an
// ended one changes nothing and still succeeds). `-` reads the Uids from stdin.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { expireAddOnRequest } from '../../api/billing.js';

export default defineCommand<MutationFlags>({
  path: ['addons', 'expire'],
  summary: 'End a subscription add-on now (- reads Uids from stdin)',
  description:
    'Expire a subscription add-on immediately: its end and expiration dates become now. ' +
    'Expiring an add-on that has already ended changes nothing and succeeds. ' +
    'With - in place of the Uid, reads Uids from stdin, one a line (or JSON Lines with "Uid"), ' +
    'and prints one outcome a line, then a summary on stderr.',
  examples: [
    'bo addons expire sa_0001',
    'bo addons expire sa_0001 --dry-run --json',
    'cut -f1 addons.tsv | bo addons expire - --concurrency 8',
  ],
  configure: (cmd) => mutationFlags(cmd.argument('<subscriptionAddOnUid>', 'the subscription add-on Uid, or - for stdin'), { batch: true }),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<subscriptionAddOnUid>',
        noun: 'subscription add-on',
        done: 'expired',
        resource: 'SubscriptionAddOn',
        action: (u) => `Expire add-on ${u}`,
        prepare: () => undefined,
        request: (u) => expireAddOnRequest(u),
        // An add-on that had already ended is left as it was: the server's sentence says so.
        note: (_u, _p, res) => (typeof res.body === 'string' && /already/i.test(res.body) ? res.body : undefined),
      },
      uid as string,
      opts,
    );
  },
});
