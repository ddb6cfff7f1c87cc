// `bo lists subscribe <listUid> --email <e> [--first-name] [--last-name] [--send-welcome]
// [--source <s>]`: the public subscription endpoint, sent with no Authorization header
// (D4); subscribing an address twice gives the existing subscription back (D20).
// `--email -` reads addresses from stdin (lines, or JSON Lines with "Email").
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationField } from '../../mutation/field.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { subscribeToListRequest } from '../../api/email.js';
import * as v from '../../input/validate.js';

interface Opts extends MutationFlags {
  email: string;
  firstName?: string;
  lastName?: string;
  sendWelcome?: boolean;
  source?: string;
}

/** Each flag with the field of the subscription it sets (a batch record may name either). */
const fields: readonly MutationField[] = [
  { flag: '--first-name', api: 'FirstName', parse: (l, t, v) => v.checkText(l, t, { min: 1, max: 100 }) },
  { flag: '--last-name', api: 'LastName', parse: (l, t, v) => v.checkText(l, t, { min: 1, max: 100 }) },
  { flag: '--send-welcome', api: 'SendWelcomeEmail', kind: 'boolean' },
  { flag: '--source', api: 'Source', parse: (l, t, v) => v.checkText(l, t, { min: 1, max: 250 }) },
];

export default defineCommand<Opts>({
  path: ['lists', 'subscribe'],
  fields,
  summary: 'Subscribe an email address to a list (--email - reads addresses from stdin)',
  description:
    'Subscribe an address to an email list, creating the person when the address is new. This ' +
    'endpoint takes no credentials, so none are sent. An address already on the list keeps its ' +
    'subscription. A list that requires double opt-in emails a confirmation; --send-welcome sends ' +
    "the list's welcome email when it has one. With --email -, reads addresses from stdin, one a " +
    'line (or JSON Lines with "Email" and maybe the record\'s own FirstName, LastName, Source and ' +
    'SendWelcomeEmail, also named as the flags: first-name, last-name, source, send-welcome), and subscribes each.',
  examples: [
    'bo lists subscribe list_0001 --email ada@example.com --first-name Ada --last-name Lovelace',
    'bo lists subscribe list_0001 --email ada@example.com --send-welcome --source signup-form --dry-run',
    'cut -f2 signups.tsv | bo lists subscribe list_0001 --email - --source import',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<listUid>', 'the email list Uid')
        .requiredOption('--email <address>', 'the address to subscribe, or - for stdin')
        .option('--first-name <name>', 'first name of a new person')
        .option('--last-name <name>', 'last name of a new person')
        .option('--send-welcome', "send the list's welcome email")
        .option('--source <text>', 'where the subscription came from'),
      { batch: true },
    ),
  run: async (ctx, [list], opts) => {
    const listUid = v.checkUid('<listUid>', list as string);
    await runMutation(
      ctx,
      {
        targetLabel: '--email',
        noun: 'email list',
        done: 'subscribed',
        anonymous: true,
        checkTarget: v.checkEmail,
        recordKey: 'Email',
        action: (e) => `Subscribe ${e} to list ${listUid}`,
        // A record of people (Email, FirstName, …) may carry the person's other fields.
        resource: 'Person',
        fields,
        prepare: (values) => values as { FirstName?: string; LastName?: string; SendWelcomeEmail?: boolean; Source?: string },
        request: (email, p) =>
          subscribeToListRequest(listUid, {
            Person: {
              Email: email,
              ...(p.FirstName === undefined ? {} : { FirstName: p.FirstName }),
              ...(p.LastName === undefined ? {} : { LastName: p.LastName }),
            },
            ...(p.SendWelcomeEmail ? { SendWelcomeEmail: true } : {}),
            ...(p.Source === undefined ? {} : { Source: p.Source }),
          }),
        notFound: () => `no email list with Uid ${listUid}`,
        kind: 'Subscriber',
        // What was sent (a welcome email only when asked for), the record's own values in a batch.
        shown: (_e, p) => ({ EmailList: listUid, ...Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined && value !== false)) }),
        note: (email, _p, res) => (res.status === 200 ? `${email} was already subscribed to list ${listUid}; nothing changed` : undefined),
      },
      opts.email,
      opts,
    );
  },
});
