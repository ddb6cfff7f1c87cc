import { defineCommand } from '../../command.js';
import { say } from '../../output/print.js';
import { openAdminClient } from '../sandbox-admin.js';
import { servedSandboxUrl } from '../../connection.js';
import { forgetSandboxSignIns } from '../../auth/credentials.js';

export default defineCommand({
  path: ['sandbox', 'reset'],
  summary: 'Put the sandbox back to its seeded state (records, outbox, clock, rate limits)',
  description:
    'Discards every change: records, sent emails, the activity log, the clock offset and two-factor state go back to the seeded state. Acts on the sandbox at --base-url when given, else on the embedded sandbox in the data folder. ' +
    'A reset of the embedded sandbox also forgets the sign-ins of `bo --sandbox login` (its tokens were signed by a key the reset replaces): `bo --sandbox` then uses the sandbox API key again.',
  examples: ['bo sandbox reset', 'bo --base-url http://127.0.0.1:4010 sandbox reset'],
  async run(ctx) {
    const client = await openAdminClient(ctx);
    await client.post('/__sandbox/reset');
    say(ctx, 'sandbox reset to its seeded state');
    if (servedSandboxUrl(ctx) === undefined) {
      const profiles = await forgetSandboxSignIns(ctx);
      if (profiles.length > 0) {
        const names = profiles.map((p) => `"${p}"`).join(', ');
        say(ctx, `Signed out of the sandbox (profile${profiles.length > 1 ? 's' : ''} ${names}): the reset voids its tokens; the sandbox API key is used again.`);
      }
    }
  },
});
