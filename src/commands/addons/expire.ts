// `bo addons expire <subscriptionAddOnUid>`: ends a running add-on now (D24: expiring an
// ended one changes nothing and still succeeds). `-` reads the Uids from stdin.
import { defineMutation, target, bySentence } from '../../mutation/define.js';
import { expireAddOnRequest } from '../../api/billing.js';
import { uidFrom } from '../../help/uid-sources.js';

export default defineMutation({
  path: ['addons', 'expire'],
  summary: 'End a subscription add-on now (- reads Uids from stdin)',
  description:
    'Expire a subscription add-on immediately: its end and expiration dates become now. ' +
    'Expiring an add-on that has already ended changes nothing and succeeds. ' +
    'With - in place of the Uid, reads Uids from stdin, one a line (or JSON Lines with "Uid"), ' +
    'and prints one outcome a line, then a summary on stderr.',
  examples: [
    'bo addons expire subaddon_xr1vbf95k',
    'bo addons expire subaddon_40076rrnkv --dry-run --json',
    'cut -f1 addons.tsv | bo addons expire - --concurrency 8',
  ],
  target: target.uid('<subscriptionAddOnUid>', `the subscription add-on Uid (${uidFrom.addon})`, { noun: 'subscription add-on', resource: 'SubscriptionAddOn' }),
  resend: 'safe', // D24: expiring again changes nothing
  action: (u) => `Expire add-on ${u}`,
  request: (u) => expireAddOnRequest(u),
  done: 'expired',
  // D24: the answer is a sentence the API does not specify; the sandbox's tell (expired at,
  // already ended at); another tenant's cannot, and an add-on cannot be read back (D36).
  changed: (res) => bySentence(res, { changed: /^Add-on expired at \S+$/, unchanged: /^Add-on already ended at \S+$/, reason: 'already-ended' }),
  // An add-on that had already ended is left as it was: the server's sentence says so.
  note: (_u, _p, res) => (typeof res.body === 'string' && /already/i.test(res.body) ? res.body : undefined),
});
