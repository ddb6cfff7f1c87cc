import { defineCommand } from '../../command.js';
import { say } from '../../output/print.js';

export default defineCommand({
  path: ['sandbox', 'reset'],
  summary: 'Put the sandbox back to its seeded state (records, outbox, clock, rate limits)',
  description:
    'Discard every change: records, sent emails, the activity log, the clock offset and two-factor state go back to the seeded state. Acts on the sandbox at --base-url when given, else on the embedded sandbox in the data folder.',
  examples: ['bo sandbox reset', 'bo --base-url http://127.0.0.1:4010 sandbox reset'],
  async run(ctx) {
    const { openAdminClient } = await import('../sandbox-admin.js');
    const client = await openAdminClient(ctx);
    await client.post('/__sandbox/reset');
    say(ctx, 'sandbox reset to its seeded state');
  },
});
