// `bo deals update <dealUid> [--name] [--amount] [--due] [--weight] [--assigned-to]
// [--stage] [--data]`: PUT /crm/deals/{uid} is a merge (D18), so only the fields given
// are sent and changed. `-` reads deal Uids from stdin, the same changes for each.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';

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

export default defineCommand<Opts>({
  path: ['deals', 'update'],
  summary: 'Change fields of a deal (- reads Uids from stdin)',
  description:
    'Update a deal: only the fields given change, the others stay as they are. At least one field flag ' +
    'is needed. --due takes a date or a date-time (a bare date means 23:59:59 UTC that day); --data ' +
    'replaces the free-form data with a JSON object (@file reads a file). ' +
    'With - in place of the Uid, reads deal Uids from stdin, one a line (or JSON Lines with "Uid"), ' +
    'and makes the same changes to each.',
  examples: [
    'bo deals update deal_z9w6mp246 --stage stage_cyukhthtx --amount 1200',
    'bo deals update deal_1hgoryug1t --name "Renewal 2027" --due 2027-01-31 --dry-run',
    'jq -r .Uid stale-deals.jsonl | bo deals update - --assigned-to rep-42',
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
    const [{ runMutation }, { updateDealRequest }, v, { printAnswer }, { UsageError }] = await Promise.all([
      import('../../mutation/run.js'),
      import('../../api/crm.js'),
      import('../../input/validate.js'),
      import('../../mutation/answer.js'),
      import('../../errors.js'),
    ]);
    await runMutation(
      ctx,
      {
        targetLabel: '<dealUid>',
        noun: 'deal',
        done: 'updated',
        action: (u) => `Update deal ${u}`,
        prepare: async () => {
          const changes: import('../../api/crm.js').DealChanges = {};
          if (opts.name !== undefined) changes.Name = await v.checkText('--name', opts.name, { min: 1, max: 250 });
          if (opts.amount !== undefined) changes.Amount = v.checkNumber('--amount', opts.amount);
          if (opts.due !== undefined) changes.DueDate = v.checkDate('--due', opts.due);
          if (opts.weight !== undefined) changes.Weight = v.checkInteger('--weight', opts.weight, -INT32 - 1, INT32);
          if (opts.assignedTo !== undefined) changes.AssignedToPersonClientIdentifier = await v.checkText('--assigned-to', opts.assignedTo, { min: 1 });
          if (opts.stage !== undefined) changes.DealPipelineStage = { Uid: v.checkUid('--stage', opts.stage) };
          if (opts.data !== undefined) {
            const data = await v.checkJson('--data', opts.data);
            if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data must be a JSON object, like {"region":"EMEA"}');
            changes.SchemaLessData = data;
          }
          if (Object.keys(changes).length === 0) {
            throw new UsageError('nothing to change: give at least one of --name, --amount, --due, --weight, --assigned-to, --stage, --data');
          }
          return changes;
        },
        request: (u, changes) => updateDealRequest(u, changes),
        notFound: (u, changes) =>
          `no deal with Uid ${u}${changes.DealPipelineStage ? ` (or no pipeline stage with Uid ${changes.DealPipelineStage.Uid})` : ''}`,
        print: async (c, _u, res) => printAnswer(c, res.body),
        // A date typed bare is sent as an instant: say which.
        confirm: (u, changes) =>
          `Deal ${u} updated: ${Object.keys(changes).map((k) => (k === 'DueDate' ? `DueDate ${changes.DueDate}` : k)).join(', ')}`,
      },
      uid as string,
      opts,
    );
  },
});
