// `bo deals update <dealUid> [--name] [--amount] [--due] [--weight] [--assigned-to]
// [--stage] [--data]`: PUT /crm/deals/{uid} is a merge (D18), so only the fields given
// are sent and changed. `-` reads deal Uids from stdin, the same changes for each, or
// JSON Lines records that carry their own (the runner's per-record fields).
import { UsageError } from '../../errors.js';
import { defineMutation, target, changedIfRecord, CannotRead } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { findAccount, updateDealRequest } from '../../api/crm.js';
import { groupUidNotes, uidFrom } from '../../help/uid-sources.js';

const INT32 = 2_147_483_647;

/** What --diff reads of an account: its deals' fields that this verb sets. */
const DEAL_FIELDS = ['Uid', 'Name', 'Amount', 'DueDate', 'Weight', 'AssignedToPersonClientIdentifier', 'DealPipelineStage.Uid', 'SchemaLessData']
  .map((f) => `Deals.${f}`)
  .join(',');

/** A record's value under one of `names` (any case), as a Uid: a text, or {"Uid": …}. */
function contextValue(context: Readonly<Record<string, unknown>>, names: string[]): string | undefined {
  const wanted = names.map((n) => n.toLowerCase());
  for (const [key, value] of Object.entries(context)) {
    if (!wanted.includes(key.toLowerCase())) continue;
    const uid = value !== null && typeof value === 'object' ? (value as { Uid?: unknown }).Uid : value;
    if (typeof uid === 'string' && uid.trim() !== '') return uid.trim();
  }
  return undefined;
}

export default defineMutation({
  path: ['deals', 'update'],
  summary: 'Change fields of a deal (- reads Uids from stdin)',
  description:
    'Update a deal: only the fields given change, the others stay as they are. At least one field flag ' +
    'is needed. --due takes a date or a date-time (a bare date means 23:59:59 UTC that day); --data ' +
    'replaces the free-form data with a JSON object (@file reads a file). ' +
    'With - in place of the Uid, reads deal Uids from stdin, one a line, and makes the same changes to ' +
    'each; a JSON Lines record may carry its own fields, by API name or flag name ' +
    '({"Uid":"deal_1","Amount":1200,"DueDate":"2027-01-31"} or {"Uid":"deal_1","amount":"1200"}), ' +
    `which override the flags for that record. ${groupUidNotes.deals}`,
  examples: [
    'bo deals update deal_z9w6mp246 --stage stage_cyukhthtx --amount 1200',
    'bo deals update deal_1hgoryug1t --name "Renewal 2027" --due 2027-01-31 --dry-run',
    'jq -r .Uid stale-deals.jsonl | bo deals update - --assigned-to rep-42',
    "jq -c '{Uid, Amount: .NewAmount}' renewals.jsonl | bo deals update -",
  ],
  target: target.uid('<dealUid>', `the deal Uid (${uidFrom.deal})`, { noun: 'deal', resource: 'Deal', columns: ['Account', 'AccountUid', 'AccountName'] }),
  fields: [
    field.text('--name <name>', 'Name', 'the deal name, 1-250 characters', { max: 250 }),
    field.number('--amount <number>', 'Amount', 'the amount, a decimal number'),
    field.date('--due <date>', 'DueDate', 'the due date (date or date-time)'),
    field.integer('--weight <n>', 'Weight', 'the weight, a whole number', -INT32 - 1, INT32),
    field.text('--assigned-to <clientId>', 'AssignedToPersonClientIdentifier', 'the client identifier of the person it is assigned to'),
    field.reference('--stage <stageUid>', 'DealPipelineStage', `the pipeline stage Uid (${uidFrom.stage})`),
    field.json('--data <json>', 'SchemaLessData', 'free-form data: a JSON object (@file reads a file)', async (l, t, v) => {
      const data = await v.checkJson(l, t);
      if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${l} must be a JSON object, like {"region":"EMEA"}`);
      return data;
    }),
  ],
  needsField: true,
  // --diff: a deal is read only inside its account's Deals (D36), so its row names the account.
  current: async (client, uid, context) => {
    const account = contextValue(context, ['Account', 'AccountUid']);
    if (account === undefined) throw new CannotRead('a deal can be read only inside its account: give an Account column (as bo deals list writes it)');
    const found = await findAccount(client, account, DEAL_FIELDS);
    const deals = (found as { Deals?: unknown } | null)?.Deals;
    const deal = Array.isArray(deals) ? (deals as Array<Record<string, unknown>>).find((d) => d.Uid === uid) : undefined;
    if (!deal) throw new CannotRead(found ? `account ${account} has no deal ${uid}` : `no account with Uid ${account}`);
    return deal;
  },
  resend: 'safe', // D18: a PUT that merges sets the same fields again
  action: (u) => `Update deal ${u}`,
  // The values are the deal's fields by their API names: the merge (D18) sends just them.
  request: (u, changes) => updateDealRequest(u, changes),
  done: 'updated',
  // The answer is the updated deal: the merge (D18) was applied; any other answer cannot tell.
  changed: changedIfRecord,
  notFound: (u, changes) => `no deal with Uid ${u}${changes.DealPipelineStage ? ` (or no pipeline stage with Uid ${changes.DealPipelineStage.Uid})` : ''}`,
});
