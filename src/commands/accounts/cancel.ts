// `bo accounts cancel <accountUid> --reason <text> [--comment <text>]`: submits a
// cancellation request (D22); the account moves to its cancelling stage. Destructive:
// asks on a terminal, needs --yes otherwise and for a `-` batch.
import { defineMutation, target, changedIfRecord } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { accountStage, accountSummary, cancelAccountRequest } from '../../api/crm.js';

export default defineMutation({
  path: ['accounts', 'cancel'],
  summary: 'Cancel an account (asks first; - reads Uids from stdin)',
  description:
    'Submit a cancellation request for an account: it moves to its cancelling stage and its subscription ' +
    'ends at its renewal date. Asks for confirmation on a terminal; pass --yes in scripts. ' +
    '--reason and --comment take @file to read the text from a file. ' +
    'With - in place of the Uid, reads Uids from stdin (a batch always needs --yes); a JSON Lines record ' +
    'may carry its own CancelationReason (reason) and Comment (comment). A single cancel (not a batch) then ' +
    'reads the account and shows the stage it is in now (AccountStage).',
  examples: [
    'bo accounts cancel acc_1irrfvoamo --reason "Moved to a competitor"',
    'bo accounts cancel acc_1sikv04mxo --reason "Closed" --comment @notes.txt --yes',
    'jq -r .Uid churned.jsonl | bo accounts cancel - --reason "Non-payment" --yes',
  ],
  target: target.uid('<accountUid>', 'the account Uid', { noun: 'account', resource: 'Account' }),
  fields: [
    field.text('--reason <text>', 'CancelationReason', 'why the account cancels (@file reads a file)', { required: true }),
    field.text('--comment <text>', 'Comment', 'a comment (@file reads a file)'),
  ],
  destructive: true,
  resend: 'safe', // D22, D18: the request is stored again, the account stays cancelling
  action: (u) => `Cancel account ${u}`,
  describe: (client, u) => accountSummary(client, u),
  request: (u, body) => cancelAccountRequest(u, body),
  done: 'cancelled',
  // D17, D22: the answer is the cancellation request the service stored, which proves one
  // was; any other answer (204, a sentence) cannot tell.
  changed: changedIfRecord,
  // The stage the account moved to: one read after a single cancel (never for a batch).
  after: { field: 'AccountStage', read: (client, u) => accountStage(client, u) },
});
