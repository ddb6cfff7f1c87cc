// `bo lists subscribe <listUid> --email <e> [--first-name] [--last-name] [--send-welcome]
// [--source <s>]`: the public subscription endpoint, sent with no Authorization header
// (D4); subscribing an address twice gives the existing subscription back (D20).
// `--email -` reads addresses from stdin (lines, or JSON Lines with "Email").
import { checkEmail } from '../../input/validate.js';
import { arg, defineMutation, target, CHANGED, UNKNOWN, unchanged } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { subscribeToListRequest } from '../../api/email.js';

export default defineMutation({
  path: ['lists', 'subscribe'],
  summary: 'Subscribe an email address to a list (--email - reads addresses from stdin)',
  description:
    'Subscribe an address to an email list, creating the person when the address is new. This ' +
    'endpoint takes no credentials, so none are sent. An address already on the list keeps its ' +
    'subscription. A list that requires double opt-in emails a confirmation; --send-welcome sends ' +
    "the list's welcome email when it has one. With --email -, reads addresses from stdin, one a " +
    'line (or JSON Lines with "Email" and maybe the record\'s own FirstName, LastName, Source and ' +
    'SendWelcomeEmail, also named as the flags: first-name, last-name, source, send-welcome), and subscribes each.',
  examples: [
    'bo lists subscribe list_hrald2nybc --email ada@example.com --first-name Ada --last-name Lovelace',
    'bo lists subscribe list_hrald2nybc --email ada@example.com --send-welcome --source signup-form --dry-run',
    'cut -f2 signups.tsv | bo lists subscribe list_hrald2nybc --email - --source import',
  ],
  target: target.option('--email <address>', 'the address to subscribe', { noun: 'email list', check: checkEmail, recordKey: 'Email', resource: 'Person' }),
  args: [arg.uid('<listUid>', 'the email list Uid')],
  fields: [
    field.text('--first-name <name>', 'FirstName', 'first name of a new person', { max: 100 }),
    field.text('--last-name <name>', 'LastName', 'last name of a new person', { max: 100 }),
    field.boolean('--send-welcome', 'SendWelcomeEmail', "send the list's welcome email"),
    field.text('--source <text>', 'Source', 'where the subscription came from', { max: 250 }),
  ],
  anonymous: true,
  resend: 'safe', // D20: subscribing twice returns the existing subscription
  action: (e, [listUid]) => `Subscribe ${e} to list ${listUid}`,
  request: (email, p, [listUid]) =>
    subscribeToListRequest(listUid, {
      Person: {
        Email: email,
        ...(p.FirstName === undefined ? {} : { FirstName: p.FirstName }),
        ...(p.LastName === undefined ? {} : { LastName: p.LastName }),
      },
      ...(p.SendWelcomeEmail ? { SendWelcomeEmail: true } : {}),
      ...(p.Source === undefined ? {} : { Source: p.Source }),
    }),
  done: 'subscribed',
  // D17, D20: 201 with a new subscription; 200 with the one that existed (nothing changed);
  // any other answer (204, empty) cannot tell.
  changed: (res) => (res.status === 201 ? CHANGED : res.status === 200 && res.body !== undefined ? unchanged('already-subscribed') : UNKNOWN),
  kind: 'Subscriber',
  notFound: (_e, _p, [listUid]) => `no email list with Uid ${listUid}`,
  shown: (_e, p, [listUid]) => ({ EmailList: listUid, ...Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined && value !== false)) }),
  note: (email, _p, res, [listUid]) => (res.status === 200 ? `${email} was already subscribed to list ${listUid}; nothing changed` : undefined),
});
