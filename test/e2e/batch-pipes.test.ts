// bo's own output piped into a batch, on the built binary through a real shell pipe, as
// the README's tour and a user's shell run it: the piped rows of a list (tab-separated,
// the Uid first) and its --jsonl records (the account's other fields ignored).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runShell } from '../helpers/run-bin.js';

/** A fresh config folder and embedded sandbox state of its own. */
function freshEnv() {
  const t = tempConfig();
  return { ...t.env, BO_DATA_DIR: join(t.root, 'data') };
}

describe('a list piped into a batch', () => {
  it('bo --sandbox accounts list --filter AccountStage=2 | bo --sandbox accounts extend-trial - --to 2030-12-31', async () => {
    const env = freshEnv();
    const list = await runShell('$BO --sandbox accounts list --filter AccountStage=2', { env });
    expect(list.code).toBe(0);
    const rows = list.stdout.trimEnd().split('\n');
    // Rows of several tab-separated columns, the Uid first.
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((row) => /^acc_\S+\t[^\t]+\t2 /.test(row))).toBe(true);
    const uids = rows.map((row) => row.split('\t')[0]);

    const r = await runShell('set -o pipefail; $BO --sandbox accounts list --filter AccountStage=2 | $BO --sandbox accounts extend-trial - --to 2030-12-31', { env });
    expect(r.stderr).toMatch(new RegExp(`^${uids.length} extended on the embedded sandbox`));
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').sort()).toEqual(uids.map((u) => `${u}\tok\tToDate=2030-12-31T23:59:59.000Z`).sort());

    // What the sandbox stored: every trial now ends then.
    const after = await runShell('$BO --sandbox --jsonl accounts list --filter AccountStage=2 --fields CurrentSubscription.EndDate', { env });
    const ends = after.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as { CurrentSubscription: { EndDate: string } }).CurrentSubscription.EndDate);
    expect(new Set(ends)).toEqual(new Set(['2030-12-31T23:59:59.000Z']));
  });

  it('--jsonl records of the list: their Name, _objectType … are ignored; a dry run shows each body', async () => {
    const env = freshEnv();
    const r = await runShell('set -o pipefail; $BO --sandbox --jsonl accounts list --filter AccountStage=2 --limit 3 | $BO --sandbox accounts extend-trial - --to 2031-01-31 --dry-run', { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^PUT \S+\/crm\/accounts\/acc_\S+\/extend-trial\t\{"ToDate":"2031-01-31T23:59:59.000Z"\}$/);
  });
});
