// Every mutation verb and its group shows examples in --help, a batch one for each verb.
import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES } from '../../src/mutation/records.js';
import { runBo } from '../helpers/run-bo.js';

const verbs = [
  ['addons', 'expire'],
  ['accounts', 'extend-trial'],
  ['accounts', 'cancel'],
  ['drips', 'delete'],
  ['articles', 'untag'],
  ['deals', 'update'],
  ['subscriptions', 'require-upgrade'],
  ['lists', 'create'],
];

/** One target a run: no `-` batch, so no batch flags. */
const singles = [
  ['memberships', 'update'],
  ['people', 'magic-link'],
  ['payment-info', 'update'],
  ['drips', 'add-message'],
];

describe('mutation help', () => {
  it.each(verbs)('bo %s %s --help shows examples, one of them a batch from stdin, and the mutation flags', async (group, verb) => {
    const r = await runBo([group!, verb!, '--help']);
    expect(r.code).toBe(0);
    const examples = r.stdout.slice(r.stdout.indexOf('\nExamples:\n'));
    expect(examples).toMatch(new RegExp(`\\n {2}bo ${group} ${verb} `));
    expect(examples).toMatch(new RegExp(`\\| bo ${group} ${verb} - `));
    for (const flag of ['--dry-run', '--yes', '--concurrency <n>', '--fail-fast']) expect(r.stdout).toContain(flag);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`A line over ${MAX_LINE_BYTES / 1024} KiB, not valid UTF-8`);
    // The per-record fields and bo's own piped rows, in the same words for every batch verb.
    expect(r.stdout.replace(/\s+/g, ' ')).toContain("the first tab-separated field, so bo's own piped rows work");
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('A record may carry this command\'s fields by API name or flag name without dashes');
    expect(r.stdout).not.toMatch(/\bD\d+\b/);
  });

  it('bo lists subscribe --help shows a batch example reading addresses with --email -', async () => {
    const r = await runBo(['lists', 'subscribe', '--help']);
    expect(r.code).toBe(0);
    const examples = r.stdout.slice(r.stdout.indexOf('\nExamples:\n'));
    expect(examples).toMatch(/\| bo lists subscribe \S+ --email - /);
    for (const flag of ['--dry-run', '--yes', '--concurrency <n>', '--fail-fast']) expect(r.stdout).toContain(flag);
    expect(r.stdout).not.toMatch(/\bD\d+\b/);
  });

  it.each(singles)('bo %s %s --help shows examples and the mutation flags, no batch flags', async (group, verb) => {
    const r = await runBo([group!, verb!, '--help']);
    expect(r.code).toBe(0);
    const examples = r.stdout.slice(r.stdout.indexOf('\nExamples:\n'));
    expect(examples).toMatch(new RegExp(`\\n {2}(\\S.*\\| )?bo ${group} ${verb} `));
    for (const flag of ['--dry-run', '--yes']) expect(r.stdout).toContain(flag);
    for (const flag of ['--concurrency', '--fail-fast']) expect(r.stdout).not.toContain(flag);
    expect(r.stdout).not.toMatch(/\bD\d+\b/);
  });

  it.each(['addons', 'accounts', 'drips', 'articles'])('bo %s --help shows examples', async (group) => {
    const r = await runBo([group, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\nExamples:\\n {2}bo ${group} `));
  });
});
