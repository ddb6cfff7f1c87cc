// The runner's verdict (D32) in process, through `bo addons expire -` against a recording
// server: answers that tell (the sandbox's sentences) and one that does not, in the
// outcome lines, the summary, --jsonl and the journal's outcome entries; a failure's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { EXPIRED, startBatchServer, type BatchServer } from './batch-server.js';

let server: BatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ENDED = 'Add-on already ended at 2026-11-28T05:03:47.000Z';
/** sa_ended: had ended; sa_other: a tenant's own sentence; sa_gone: 404; else expired. */
const serve = async () =>
  (server = await startBatchServer((uid) =>
    uid === 'sa_ended' ? { status: 200, body: ENDED } : uid === 'sa_other' ? { status: 200, body: 'Done.' } : uid === 'sa_gone' ? { status: 404 } : { status: 200, body: EXPIRED },
  ));

describe('a batch tells what changed, what did not, and what it cannot know', () => {
  it('lines, summary and --jsonl carry it; the journal records it per change', async () => {
    const s = await serve();
    const env = testEnv(s, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' });
    const stdin = 'sa_1\nsa_ended\nsa_other\nsa_gone\n';
    const r = await runBo(['addons', 'expire', '-', '--concurrency', '1'], { env, stdin });
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toEqual(['sa_1\tok\texpired', `sa_ended\tok\talready ended (${ENDED})`, 'sa_other\tok\tdone', 'sa_gone\t404\tnot found']);
    expect(r.stderr).toContain(`1 expired, 1 already ended, 1 done, 1 not found on ${s.url} (profile default)\n`);

    const jsonl = await runBo(['--jsonl', 'addons', 'expire', '-', '--concurrency', '1'], { env, stdin });
    expect(jsonl.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).map((o) => [o.uid, o.ok, o.changed, o.reason])).toEqual([
      ['sa_1', true, true, null],
      ['sa_ended', true, false, 'already-ended'],
      ['sa_other', true, null, null],
      ['sa_gone', false, false, 'refused'],
    ]);

    const folder = join(env.BO_STATE_DIR!, 'journal');
    // Either run: both sent the same records and got the same answers.
    const file = readdirSync(folder).filter((f) => f.endsWith('.jsonl'))[0]!;
    const outcomes = readFileSync(join(folder, file), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.t === 'outcome');
    expect(outcomes.map((e) => [e.n, e.ok, e.changed, e.reason])).toEqual([
      [1, true, true, undefined],
      [2, true, false, 'already-ended'],
      [3, true, null, undefined],
      [4, false, false, 'refused'],
    ]);
  });

  it('the single form: the line and --json say it, the server\'s words stay a note', async () => {
    const s = await serve();
    const env = testEnv(s, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' });
    const tty = await runBo(['--no-color', 'addons', 'expire', 'sa_ended'], { env, stdoutIsTTY: true });
    expect(tty).toMatchObject({ code: 0, stdout: '✔ Subscription add-on sa_ended already ended\n', stderr: `${ENDED}\n` });
    const json = await runBo(['--json', 'addons', 'expire', 'sa_other'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ uid: 'sa_other', ok: true, status: 200, changed: null, reason: null, error: null, answer: 'Done.' });
  });
});
