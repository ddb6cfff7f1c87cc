import { defineCommand } from '../../command.js';
import { isRecord, openAdminClient } from '../sandbox-admin.js';
import { printValue } from '../../output/print.js';

export default defineCommand({
  path: ['sandbox', 'fixtures'],
  summary: 'The seeded Uids by kind, as JSON (GET /__sandbox/fixtures)',
  description:
    'Prints how to find seeded records: Uids by kind, the API key and the demo logins, as JSON. Acts on the sandbox at --base-url when given, else on the embedded sandbox in the data folder.',
  examples: ['bo sandbox fixtures', 'bo sandbox fixtures --jq ".trialAccounts[0]"'],
  async run(ctx) {
    const client = await openAdminClient(ctx);
    const fixtures = await client.get<unknown>('/__sandbox/fixtures', isRecord);
    // JSON whatever the output mode (--jsonl: one line), through the one JSON writer.
    await printValue(ctx, fixtures, { asJson: true });
  },
});
