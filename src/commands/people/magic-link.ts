// `bo people magic-link <email>`: asks the service to email a sign-in link. Sent with no
// Authorization header (D4); the answer is the same whether or not the address belongs
// to a person (D19), so the message says "if".
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { magicLinkRequest } from '../../api/crm.js';
import { checkEmail } from '../../input/validate.js';

export default defineCommand<MutationFlags>({
  path: ['people', 'magic-link'],
  summary: 'Email a sign-in link to a person',
  description:
    'Ask the service to email a sign-in link to an address. The link is sent only if the address ' +
    'belongs to a person, and the service answers the same either way, so the outcome cannot be ' +
    'told from here. This endpoint takes no credentials, so none are sent.',
  examples: ['bo people magic-link ada@example.com', 'bo people magic-link ada@example.com --dry-run'],
  configure: (cmd) => mutationFlags(cmd.argument('<email>', 'the email address'), { batch: false }),
  run: async (ctx, [email], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<email>',
        noun: 'person',
        done: 'requested',
        anonymous: true,
        single: true,
        checkTarget: checkEmail,
        action: (e) => `Email a sign-in link to ${e}`,
        prepare: () => undefined,
        request: (e) => magicLinkRequest(e),
        notFound: () => 'the sign-in link endpoint was not found on this server',
        kind: 'Sign-in link for',
        shown: () => ({}),
        note: () => 'The link is emailed only if the address belongs to a person; the service does not say whether it does.',
      },
      email as string,
      opts,
    );
  },
});
