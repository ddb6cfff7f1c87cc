// `bo accounts extend-trial <accountUid> --to <date> [--expiration <date>]`: moves the
// trial end (D21). A bare date means 23:59:59 UTC that day; the instant sent is printed
// back. `-` reads account Uids from stdin.
import { defineMutation, target, CHANGED, CannotRead } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { accountSummary, extendTrialRequest, trialEndRequest, trialEndsAt } from '../../api/crm.js';

export default defineMutation({
  path: ['accounts', 'extend-trial'],
  summary: 'Move the end of an account trial (- reads Uids from stdin)',
  description:
    'Extend the trial of an account in trial: --to becomes the trial end, --expiration its expiration ' +
    '(default: the same as --to). Dates are ISO 8601 date-times or bare dates; a bare date means the ' +
    'end of that day, 23:59:59 UTC. The new date must be later than the current trial end. ' +
    'With - in place of the Uid, reads Uids from stdin, one a line (the first tab-separated field, so ' +
    "bo's own piped rows work), or JSON Lines with \"Uid\" and maybe the record's own ToDate (to) and " +
    'ExpirationDate (expiration), which override the flags; the other fields of an account record are ignored.',
  examples: [
    'bo accounts extend-trial acc_107m14dk7l --to 2027-06-30',
    'bo accounts extend-trial acc_107m14dk7l --to 2027-01-31T12:00:00Z --expiration 2027-02-28 --dry-run',
    'bo accounts list --filter AccountStage=2 --all --jsonl | bo accounts extend-trial - --to 2027-01-31',
  ],
  target: target.uid('<accountUid>', 'the account Uid', { noun: 'account', resource: 'Account' }),
  fields: [
    field.date('--to <date>', 'ToDate', 'the new trial end (date or date-time)', { required: true }),
    field.date('--expiration <date>', 'ExpirationDate', 'the new expiration date (default: --to)'),
  ],
  // D21: a second extension to the same date is refused; read the trial end back first.
  resend: 'check',
  readBack: { request: (u) => trialEndRequest(u), inPlace: (u, changes, answer) => trialEndsAt(answer, u) === Date.parse(changes.ToDate) },
  // --diff: the trial end, read through GET /crm/accounts?q= (D36); the expiration is not read.
  current: async (client, u, _context, _args, signal) => {
    const end = trialEndsAt((await client.request({ ...trialEndRequest(u), ...(signal ? { signal } : {}) })).body, u);
    if (end === undefined) throw new CannotRead(`account ${u} shows no trial end`);
    return { ToDate: new Date(end).toISOString() };
  },
  action: (u) => `Extend the trial of account ${u}`,
  describe: (client, u) => accountSummary(client, u),
  request: (u, changes) => extendTrialRequest(u, changes),
  done: 'extended',
  // The API's transition (§3) and D21: a trial is extended only to a later end (else 400),
  // so an accepted extension moved it, whatever sentence comes back.
  changed: () => CHANGED,
});
