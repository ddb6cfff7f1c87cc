// `bo drips delete <dripUid>`: removes a drip campaign and its messages (D25: a second
// delete is 404). Destructive: asks on a terminal, needs --yes otherwise and for a batch.
import { defineMutation, target, CHANGED } from '../../mutation/define.js';
import { deleteDripRequest } from '../../api/email.js';
import { groupUidNotes, uidFrom } from '../../help/uid-sources.js';

export default defineMutation({
  path: ['drips', 'delete'],
  summary: 'Delete a drip campaign and its messages (asks first; - reads Uids from stdin)',
  description:
    'Delete a drip campaign with its messages. This cannot be undone: asks for confirmation on a ' +
    'terminal; pass --yes in scripts. With - in place of the Uid, reads Uids from stdin ' +
    `(a batch always needs --yes). ${groupUidNotes.drips}`,
  examples: [
    'bo drips delete drip_llo22xbxil',
    'bo drips delete drip_lpcrpsn2ab --yes --json',
    'printf "%s\\n" drip_lpcrpsn2ab drip_lsdylrbgpp | bo drips delete - --yes',
  ],
  target: target.uid('<dripUid>', `the drip campaign Uid (${uidFrom.drip})`, { noun: 'drip campaign', resource: 'DripCampaign' }),
  destructive: true,
  resend: 'safe', // D25: a second delete is a 404, which then means done
  action: (u) => `Delete drip campaign ${u} and its messages`,
  request: (u) => deleteDripRequest(u),
  done: 'deleted',
  // D25: a campaign that is already gone is a 404, so an accepted delete removed one.
  changed: () => CHANGED,
});
