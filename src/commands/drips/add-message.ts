// `bo drips add-message <dripUid> --subject <s> --body <text|@file> [--name]
// [--delay-hours <n>] [--days-after-prior <n>]`: adds a message to a drip campaign. The
// service then holds the campaign inactive until someone reviews it (D25): said on stderr.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { addDripMessageRequest, type DripMessageInput } from '../../api/email.js';
import * as v from '../../input/validate.js';

interface Opts extends MutationFlags {
  subject: string;
  body: string;
  name?: string;
  delayHours?: string;
  daysAfterPrior?: string;
}

const MAX = 2_147_483_647;

export default defineCommand<Opts>({
  path: ['drips', 'add-message'],
  summary: 'Add a message to a drip campaign (the campaign then stays inactive until reviewed)',
  description:
    'Add an email message to a drip campaign. --body takes the text or @file to read it from a file. ' +
    '--delay-hours is how long after the trigger the message is sent; --days-after-prior the delay ' +
    'in days after the message before it. Adding a message makes the campaign inactive until it is ' +
    'reviewed and turned on again.',
  examples: [
    'bo drips add-message drip_0001 --subject "Getting started" --body @day1.html --delay-hours 24',
    'bo drips add-message drip_0001 --name "Day 3" --subject "Tips" --body "<p>Hi</p>" --days-after-prior 2 --dry-run',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .argument('<dripUid>', 'the drip campaign Uid')
        .requiredOption('--subject <text>', 'the subject, 1-250 characters')
        .requiredOption('--body <text>', 'the body (@file reads a file)')
        .option('--name <name>', 'a name for the message, at most 250 characters')
        .option('--delay-hours <n>', 'hours after the trigger before it is sent')
        .option('--days-after-prior <n>', 'days after the prior message before it is sent'),
      { batch: false },
    ),
  run: async (ctx, [uid], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<dripUid>',
        noun: 'drip campaign',
        done: 'added',
        single: true,
        action: (d) => `Add a message to drip campaign ${d}`,
        prepare: async () => {
          const name = opts.name === undefined ? undefined : await v.checkText('--name', opts.name, { min: 1, max: 250 });
          const message: DripMessageInput = {
            Message: {
              ...(name === undefined ? {} : { Name: name }),
              Subject: await v.checkText('--subject', opts.subject, { min: 1, max: 250 }),
              Body: await v.checkText('--body', opts.body, { min: 1 }),
            },
          };
          if (opts.delayHours !== undefined) message.DelayInHours = v.checkInteger('--delay-hours', opts.delayHours, 0, MAX);
          if (opts.daysAfterPrior !== undefined) message.DelayFromPriorDay = v.checkInteger('--days-after-prior', opts.daysAfterPrior, 0, MAX);
          return message;
        },
        request: (d, message) => addDripMessageRequest(d, message),
        // The new message by its Uid from the answer, with its campaign and its own fields.
        kind: 'Drip message',
        shownUid: (d, _m, answer) => {
          const uid = (answer as { Uid?: unknown } | undefined)?.Uid;
          return typeof uid === 'string' ? uid : d;
        },
        shown: (d, m) => ({ DripCampaign: d, ...m.Message, DelayInHours: m.DelayInHours, DelayFromPriorDay: m.DelayFromPriorDay }),
        note: (d) => `Campaign ${d} is now inactive until it is reviewed`,
      },
      uid as string,
      opts,
    );
  },
});
