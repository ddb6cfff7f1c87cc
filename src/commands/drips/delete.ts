// `bo drips delete <dripUid>`: removes a drip campaign and its messages (D25: a second
// delete is 404). Destructive: asks on a terminal, needs --yes otherwise and for a batch.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { deleteDripRequest } from '../../api/email.js';

export default defineCommand<MutationFlags>({
  path: ['drips', 'delete'],
  summary: 'Delete a drip campaign and its messages (asks first; - reads Uids from stdin)',
  description:
    'Delete a drip campaign with its messages. This cannot be undone: asks for confirmation on a ' +
    'terminal; pass --yes in scripts. With - in place of the Uid, reads Uids from stdin ' +
    '(a batch always needs --yes).',
  examples: [
    'bo drips delete drip_0001',
    'bo drips delete drip_0001 --yes --json',
    'printf "%s\\n" drip_0001 drip_0002 | bo drips delete - --yes',
  ],
  configure: (cmd) => mutationFlags(cmd.argument('<dripUid>', 'the drip campaign Uid, or - for stdin'), { batch: true }),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<dripUid>',
        noun: 'drip campaign',
        done: 'deleted',
        destructive: true,
        resource: 'DripCampaign',
        action: (u) => `Delete drip campaign ${u} and its messages`,
        prepare: () => undefined,
        request: (u) => deleteDripRequest(u),
      },
      uid as string,
      opts,
    );
  },
});
