// `bo deals update <dealUid> [--name] [--amount] [--due] [--weight] [--assigned-to]
// [--stage] [--data]`: PUT /crm/deals/{uid} is a merge (D18), so only the fields given
// are sent and changed. `-` reads deal Uids from stdin, the same changes for each, or
// JSON Lines records that carry their own (the runner's per-record fields).
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationField } from '../../mutation/field.js';
import type { MutationFlags } from '../../mutation/types.js';
import { UsageError } from '../../errors.js';
import { runMutation } from '../../mutation/run.js';
import { updateDealRequest, type DealChanges } from '../../api/crm.js';

interface Opts extends MutationFlags {
  name?: string;
  amount?: string;
  due?: string;
  weight?: string;
  assignedTo?: string;
  stage?: string;
  data?: string;
}

const INT32 = 2_147_483_647;

/** Each flag with the deal's field it sets (a batch record may name either). */
const fields: readonly MutationField[] = [
  { flag: '--name', api: 'Name', parse: (l, t, v) => v.checkText(l, t, { min: 1, max: 250 }) },
  { flag: '--amount', api: 'Amount', parse: (l, t, v) => v.checkNumber(l, t) },
  { flag: '--due', api: 'DueDate', parse: (l, t, v) => v.checkDate(l, t) },
  { flag: '--weight', api: 'Weight', parse: (l, t, v) => v.checkInteger(l, t, -INT32 - 1, INT32) },
  { flag: '--assigned-to', api: 'AssignedToPersonClientIdentifier', parse: (l, t, v) => v.checkText(l, t, { min: 1 }) },
  { flag: '--stage', api: 'DealPipelineStage', kind: 'reference', parse: (l, t, v) => ({ Uid: v.checkUid(l, t) }) },
  {
    flag: '--data',
    api: 'SchemaLessData',
    kind: 'json',
    parse: async (l, t, v) => {
      const data = await v.checkJson(l, t);
      if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${l} must be a JSON object, like {"region":"EMEA"}`);
      return data;
    },
  },
];

export default defineCommand<Opts>({
  path: ['deals', 'update'],
  fields,
  summary: 'Change fields of a deal (- reads Uids from stdin)',
  description:
    'Update a deal: only the fields given change, the others stay as they are. At least one field flag ' +
    'is needed. --due takes a date or a date-time (a bare date means 23:59:59 UTC that day); --data ' +
    'replaces the free-form data with a JSON object (@file reads a file). ' +
    'With - in place of the Uid, reads deal Uids from stdin, one a line, and makes the same changes to ' +
    'each; a JSON Lines record may carry its own fields, by API name or flag name ' +
    '({"Uid":"deal_1","Amount":1200,"DueDate":"2027-01-31"} or {"Uid":"deal_1","amount":"1200"}), ' +
    'which override the flags for that record.',
  examples: [
    'bo deals update deal_0001 --stage stage_0003 --amount 1200',
    'bo deals update deal_0001 --name "Renewal 2027" --due 2027-01-31 --dry-run',
    'jq -r .Uid stale-deals.jsonl | bo deals update - --assigned-to rep-42',
    "jq -c '{Uid, Amount: .NewAmount}' renewals.jsonl | bo deals update -",
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<dealUid>', 'the deal Uid, or - for stdin')
        .option('--name <name>', 'the deal name, 1-250 characters')
        .option('--amount <number>', 'the amount, a decimal number')
        .option('--due <date>', 'the due date (date or date-time)')
        .option('--weight <n>', 'the weight, a whole number')
        .option('--assigned-to <clientId>', 'the client identifier of the person it is assigned to')
        .option('--stage <stageUid>', 'the pipeline stage Uid')
        .option('--data <json>', 'free-form data: a JSON object (@file reads a file)'),
      { batch: true },
    ),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<dealUid>',
        noun: 'deal',
        done: 'updated',
        action: (u) => `Update deal ${u}`,
        resource: 'Deal',
        needsField: true,
        fields,
        // The values are the deal's fields by their API names: the merge (D18) sends just them.
        prepare: (values) => values as DealChanges,
        request: (u, changes) => updateDealRequest(u, changes),
        notFound: (u, changes) =>
          `no deal with Uid ${u}${changes.DealPipelineStage ? ` (or no pipeline stage with Uid ${changes.DealPipelineStage.Uid})` : ''}`,
      },
      uid as string,
      opts,
    );
  },
});
