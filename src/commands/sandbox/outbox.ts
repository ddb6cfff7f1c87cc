import { defineCommand } from '../../command.js';
import { NotFoundError } from '../../errors.js';
import { isRecord, openAdminClient } from '../sandbox-admin.js';
import { printList, printRecord } from '../../output/print.js';
import { listOf } from '../../api/record-source.js';
import { option } from '../../input/declare.js';

interface Mail {
  to: string;
  subject: string;
  text: string;
  code: string | null;
  sentAt: string;
}

export default defineCommand({
  printsRecords: true,
  path: ['sandbox', 'outbox'],
  summary: 'Show the emails the sandbox has "sent" (two-factor codes, magic links, welcome emails)',
  description:
    'List the emails the sandbox has sent, oldest first; --last shows only the newest, with its text. Acts on the sandbox at --base-url when given, else on the embedded sandbox in the data folder. Exit 3 when --last finds no email.',
  examples: ['bo sandbox outbox', 'bo sandbox outbox --last', "bo sandbox outbox --last --json | jq -r .code"],
  options: [option.switch('--last', 'only the newest email, in full')] as const,
  async run(ctx, _args, opts) {
    const client = await openAdminClient(ctx);
    const mails = await client.get<Mail[]>('/__sandbox/outbox', (v) => Array.isArray(v) && v.every(isRecord));
    if (opts.last) {
      const mail = mails.at(-1);
      if (!mail) throw new NotFoundError('the sandbox has not sent any email yet');
      await printRecord(ctx, mail, [
        ['sentAt', mail.sentAt, 'date'],
        ['to', mail.to],
        ['subject', mail.subject],
        ['code', mail.code],
        ['text', mail.text],
      ]);
      return;
    }
    await printList(ctx, listOf(mails), [
      { header: 'SENT', get: (m) => m.sentAt, kind: 'date' },
      { header: 'TO', get: (m) => m.to },
      { header: 'SUBJECT', get: (m) => m.subject },
      { header: 'CODE', get: (m) => m.code ?? '' },
    ]);
  },
});
