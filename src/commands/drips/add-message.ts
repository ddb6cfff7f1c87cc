// `bo drips add-message <dripUid> --subject <s> --body <text|@file> [--name]
// [--delay-hours <n>] [--days-after-prior <n>]`: adds a message to a drip campaign. The
// service then holds the campaign inactive until someone reviews it (D25): said on stderr.
import { defineMutation, target, CHANGED } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { addDripMessageRequest, type DripMessageInput } from '../../api/email.js';
import { groupUidNotes, uidFrom } from '../../help/uid-sources.js';

const MAX = 2_147_483_647;

export default defineMutation({
  path: ['drips', 'add-message'],
  summary: 'Add a message to a drip campaign (the campaign then stays inactive until reviewed)',
  description:
    'Add an email message to a drip campaign. --body takes the text or @file to read it from a file. ' +
    '--delay-hours is how long after the trigger the message is sent; --days-after-prior the delay ' +
    'in days after the message before it. Adding a message makes the campaign inactive until it is ' +
    `reviewed and turned on again. ${groupUidNotes.drips}`,
  examples: [
    'bo drips add-message drip_llo22xbxil --subject "Getting started" --body @day1.html --delay-hours 24',
    'bo drips add-message drip_llo22xbxil --name "Day 3" --subject "Tips" --body "<p>Hi</p>" --days-after-prior 2 --dry-run',
  ],
  target: target.uid('<dripUid>', `the drip campaign Uid (${uidFrom.drip})`, { noun: 'drip campaign', single: true }),
  fields: [
    field.text('--subject <text>', 'Subject', 'the subject, 1-250 characters', { required: true, max: 250 }),
    field.text('--body <text>', 'Body', 'the body (@file reads a file)', { required: true }),
    field.text('--name <name>', 'Name', 'a name for the message, at most 250 characters', { max: 250 }),
    field.integer('--delay-hours <n>', 'DelayInHours', 'hours after the trigger before it is sent', 0, MAX),
    field.integer('--days-after-prior <n>', 'DelayFromPriorDay', 'days after the prior message before it is sent', 0, MAX),
  ],
  resend: 'never', // a second message would be added
  prepare: ({ Name, Subject, Body, DelayInHours, DelayFromPriorDay }): DripMessageInput => ({
    Message: { ...(Name === undefined ? {} : { Name }), Subject, Body },
    ...(DelayInHours === undefined ? {} : { DelayInHours }),
    ...(DelayFromPriorDay === undefined ? {} : { DelayFromPriorDay }),
  }),
  action: (d) => `Add a message to drip campaign ${d}`,
  request: (d, message) => addDripMessageRequest(d, message),
  done: 'added',
  // Every accepted message is a new one (D17: 201 with the created message).
  changed: () => CHANGED,
  kind: 'Drip message',
  shownUid: (d, _m, answer) => {
    const uid = (answer as { Uid?: unknown } | undefined)?.Uid;
    return typeof uid === 'string' ? uid : d;
  },
  shown: (d, m) => ({ DripCampaign: d, ...m.Message, DelayInHours: m.DelayInHours, DelayFromPriorDay: m.DelayFromPriorDay }),
  note: (d) => `Campaign ${d} is now inactive until it is reviewed`,
});
