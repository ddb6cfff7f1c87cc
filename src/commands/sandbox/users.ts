import { defineCommand } from '../../command.js';
import { isRecord, openAdminClient } from '../sandbox-admin.js';
import { printList, printValue } from '../../output/print.js';
import { listOf } from '../../api/record-source.js';

interface User {
  username: string;
  password: string;
  kind: string;
  totpSecret: string | null;
  recoveryCodes: string[];
}

export default defineCommand({
  printsRecords: true,
  path: ['sandbox', 'users'],
  summary: 'List the demo logins: plain, TOTP (with its secret), email 2FA, both, forced enrollment',
  description:
    'List the sandbox demo logins. Acts on the sandbox at --base-url when given, else on the embedded sandbox in the data folder. With --json, prints the fixtures\' `users` array as is.',
  examples: ['bo sandbox users', 'bo sandbox users --json', 'bo --base-url http://127.0.0.1:4010 sandbox users'],
  async run(ctx) {
    const client = await openAdminClient(ctx);
    const isUser = (u: unknown) => isRecord(u) && typeof u.username === 'string' && Array.isArray(u.recoveryCodes);
    const { users } = await client.get<{ users: User[] }>('/__sandbox/fixtures', (v) => isRecord(v) && Array.isArray(v.users) && v.users.every(isUser));
    if (ctx.globals.json) return printValue(ctx, users);
    await printList(ctx, listOf(users), [
      { header: 'KIND', get: (u) => u.kind },
      { header: 'USERNAME', get: (u) => u.username, fixed: true },
      // What a user copies is never cut to fit the terminal.
      { header: 'PASSWORD', get: (u) => u.password, fixed: true },
      { header: 'TOTP SECRET', get: (u) => u.totpSecret ?? '', fixed: true },
      { header: 'RECOVERY CODES', get: (u) => u.recoveryCodes.join(' ') },
    ]);
  },
});
