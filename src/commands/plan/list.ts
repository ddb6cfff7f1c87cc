import { defineCommand } from '../../command.js';
import { listPlans, type Plan } from '../../plan/store.js';
import { printList, warn, type Column } from '../../output/print.js';
import { listOf } from '../../api/record-source.js';

const columns: Column<Plan>[] = [
  { header: 'Id', get: (p) => p.id },
  { header: 'Created', get: (p) => p.created, kind: 'date' },
  { header: 'Profile', get: (p) => p.profile },
  // What it changes, as a confirmation names it (a plan made before names none).
  { header: 'Target', get: (p) => p.target ?? '' },
  { header: 'Method', get: (p) => p.request.method },
  { header: 'URL', get: (p) => p.request.url },
];

export default defineCommand({
  printsRecords: true,
  path: ['plan', 'list'],
  summary: 'List the plans an agent prepared (bo mcp --writes plan), oldest first',
  examples: ['bo plan list', 'bo plan list --json'],
  run: async (ctx) => {
    await printList(ctx, listOf(listPlans(ctx.io.env, (text) => warn(ctx, text))), columns);
  },
});
