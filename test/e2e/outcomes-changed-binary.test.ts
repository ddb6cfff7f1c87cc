// Whether a change changed anything (D32), on the built binary: an add-on that had
// already ended and an article without the tag are told apart from a change in every
// form (the outcome line, the summary, --json/--jsonl, the single form's note and
// --json, `bo history`, `bo mcp`), against a served sandbox; against a server whose
// answer text is not the sandbox's, the outcome is not known: `changed: null`, "2 done".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { startMcp } from '../helpers/mcp-client.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { reply, useFaultServer } from '../helpers/fault-server.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

const lines = (text: string) => text.trimEnd().split('\n');
const jsonLines = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);
const INSTANT = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

describe('addons expire: an add-on that had already ended is not counted as expired', () => {
  it('a batch with one running and one ended add-on: per-record lines, "1 expired, 1 already ended", --json changed and reason, bo history', async () => {
    const env = testEnv(sb);
    const [ended, running] = [sb.fixtures.subscriptionAddOns[0]!, sb.fixtures.subscriptionAddOns[1]!];
    expect((await runBin(['addons', 'expire', ended], { env })).code).toBe(0);

    const r = await runBin(['addons', 'expire', '-', '--concurrency', '1'], { env, stdin: `${ended}\n${running}\n` });
    expect(r.code, r.stderr).toBe(0);
    // The note a single run prints on stderr is on the record's own line.
    expect(lines(r.stdout)[0]).toMatch(new RegExp(`^${ended}\\tok\\talready ended \\(Add-on already ended at ${INSTANT}\\)$`));
    expect(lines(r.stdout)[1]).toBe(`${running}\tok\texpired`);
    expect(r.stderr).toBe(`1 expired, 1 already ended on ${sb.url} (profile default)\n`);

    // Both have ended now: --json says so for each, without parsing a sentence.
    const again = await runBin(['--json', 'addons', 'expire', '-', '--concurrency', '1'], { env, stdin: `${ended}\n${running}\n` });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([
      { uid: ended, line: 1, ok: true, status: 200, changed: false, reason: 'already-ended', error: null },
      { uid: running, line: 2, ok: true, status: 200, changed: false, reason: 'already-ended', error: null },
    ]);
    expect(again.stderr).toBe(`2 already ended on ${sb.url} (profile default)\n`);

    // bo history: the batch's counts and each change's verdict.
    const runs = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(runs.map((x) => [x.command, x.done, x.changed, x.unchanged])).toEqual([
      ['addons expire -', 2, 0, 2],
      ['addons expire -', 2, 1, 1],
      [`addons expire ${ended}`, 1, 1, 0],
    ]);
    const id = runs[1]!.id as string;
    const show = await runBin(['history', 'show', id, '--json'], { env });
    expect(show.code).toBe(0);
    expect((JSON.parse(show.stdout) as Array<Record<string, unknown>>).map((c) => [c.uid, c.outcome, c.changed, c.reason])).toEqual([
      [ended, 'done', false, 'already-ended'],
      [running, 'done', true, null],
    ]);
    expect(show.stderr).toBe(`Run ${id} (finished): 2 done (1 changed, 1 unchanged), 0 failed, 0 unknown.\n`);
    const table = await runBin(['history', 'show', id], { env });
    expect(lines(table.stdout).map((l) => l.split('\t').slice(0, 5))).toEqual([
      [ended, '1', 'done', 'false', 'already-ended'],
      [running, '2', 'done', 'true', ''],
    ]);
  });

  it('the single form: the line says it had already ended, the server\'s words are a note; --json carries changed and reason', async () => {
    const env = testEnv(sb);
    const uid = sb.fixtures.subscriptionAddOns[2]!;
    const first = await runBin(['--json', 'addons', 'expire', uid], { env });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ uid, ok: true, status: 200, changed: true, reason: null, answer: expect.stringMatching(/^Add-on expired at /) });
    const again = await runBin(['addons', 'expire', uid], { env });
    expect(again).toMatchObject({ code: 0, stdout: `${uid}\tok\talready ended\n` });
    expect(again.stderr).toMatch(new RegExp(`^Add-on already ended at ${INSTANT}\\n$`));
    const json = await runBin(['--json', 'addons', 'expire', uid], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ uid, ok: true, status: 200, changed: false, reason: 'already-ended', error: null, answer: expect.stringMatching(/^Add-on already ended at /) });
  });
});

describe('articles untag: an article without the tag is not counted as untagged', () => {
  it('a batch: the article that lacked the tag says so, "1 untagged, 1 had no such tag", --jsonl no-such-tag; bo history', async () => {
    const env = testEnv(sb);
    const tag = sb.fixtures.articles.find((a) => a.tagUids.length > 0)!.tagUids[0]!;
    const withTag = sb.fixtures.articles.filter((a) => a.tagUids.includes(tag)).map((a) => a.uid);
    expect(withTag.length).toBeGreaterThanOrEqual(2);
    const [lacking, tagged] = [withTag[0]!, withTag[1]!];
    expect((await runBin(['articles', 'untag', lacking, tag], { env })).code).toBe(0);

    const r = await runBin(['articles', 'untag', '-', tag, '--concurrency', '1'], { env, stdin: `${lacking}\n${tagged}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([`${lacking}\tok\thad no such tag (Article ${lacking} has no tag ${tag}; nothing changed)`, `${tagged}\tok\tRemovedTag=${tag}`]);
    expect(r.stderr).toBe(`1 untagged, 1 had no such tag on ${sb.url} (profile default)\n`);

    const jsonl = await runBin(['--jsonl', 'articles', 'untag', '-', tag, '--concurrency', '1'], { env, stdin: `${lacking}\n${tagged}\n` });
    expect(jsonl.code).toBe(0);
    expect(jsonLines(jsonl.stdout).map((o) => [o.uid, o.ok, o.changed, o.reason])).toEqual([
      [lacking, true, false, 'no-such-tag'],
      [tagged, true, false, 'no-such-tag'],
    ]);

    const [last, batch] = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(last).toMatchObject({ done: 2, changed: 0, unchanged: 2 });
    expect(batch).toMatchObject({ done: 2, changed: 1, unchanged: 1 });
    const list = await runBin(['history', 'list'], { env });
    // Run, started, profile, origin, then done, changed, unchanged.
    expect(lines(list.stdout).map((l) => l.split('\t').slice(4, 7))).toEqual([['2', '0', '2'], ['2', '1', '1'], ['1', '1', '0']]);
  });
});

describe('a server whose answer text is not the sandbox\'s: not known', () => {
  const server = useFaultServer(reply.json(200, 'OK'));

  it('a batch: changed null, lines and the summary say "done", not "expired"; the single form too; bo history shows null', async () => {
    const env = testEnv(server());
    const r = await runBin(['addons', 'expire', '-', '--concurrency', '1'], { env, stdin: 'sa_1\nsa_2\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['sa_1\tok\tdone', 'sa_2\tok\tdone']);
    expect(r.stderr).toBe(`2 done on ${server().url} (profile default)\n`);

    const jsonl = await runBin(['--jsonl', 'addons', 'expire', '-', '--concurrency', '1'], { env, stdin: 'sa_1\nsa_2\n' });
    expect(jsonLines(jsonl.stdout)).toEqual([
      { uid: 'sa_1', line: 1, ok: true, status: 200, changed: null, reason: null, error: null },
      { uid: 'sa_2', line: 2, ok: true, status: 200, changed: null, reason: null, error: null },
    ]);

    const single = await runBin(['--json', 'addons', 'expire', 'sa_3'], { env });
    expect(JSON.parse(single.stdout)).toEqual({ uid: 'sa_3', ok: true, status: 200, changed: null, reason: null, error: null, answer: 'OK' });
    const text = await runBin(['addons', 'expire', 'sa_3'], { env });
    expect(text).toMatchObject({ code: 0, stdout: 'sa_3\tok\tdone\n', stderr: '' });

    // An untag whose answer is not the sandbox's sentence: not known either.
    const untag = await runBin(['--jsonl', 'articles', 'untag', '-', 'tag_1'], { env, stdin: 'art_1\n' });
    expect(jsonLines(untag.stdout)).toMatchObject([{ uid: 'art_1', ok: true, changed: null, reason: null }]);
    expect(untag.stderr).toBe(`1 done on ${server().url} (profile default)\n`);

    const runs = JSON.parse((await runBin(['history', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(runs.find((x) => x.command === 'addons expire -')).toMatchObject({ done: 2, changed: 0, unchanged: 0 });
    const id = (runs.find((x) => x.command === 'addons expire -')!.id as string);
    const show = await runBin(['history', 'show', id, '--json'], { env });
    expect((JSON.parse(show.stdout) as Array<Record<string, unknown>>).map((c) => [c.changed, c.reason])).toEqual([[null, null], [null, null]]);
    expect(show.stderr).toBe(`Run ${id} (finished): 2 done (2 not known), 0 failed, 0 unknown.\n`);
  });
});

describe('bo mcp --writes direct: the result says whether it changed anything', () => {
  it('subscribing an address twice: changed true, then false with already-subscribed; the result is the API\'s answer', async () => {
    const list = sb.fixtures.emailLists[0]!;
    const run = await startMcp(['mcp', '--writes', 'direct', '--tools', 'lists'], testEnv(sb));
    const call = async () => {
      const r = (await run.client.callTool({ name: 'lists_subscribe', arguments: { listUid: list, email: 'mcp-changed@example.com' } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(r.isError).toBeFalsy();
      return JSON.parse(r.content[0]!.text) as { result: Record<string, unknown>; changed: boolean | null; reason: string | null };
    };
    const first = await call();
    const second = await call();
    expect(await run.close()).toEqual({ code: 0, signal: null });
    expect(first).toMatchObject({ changed: true, reason: null, result: { EmailList: { Uid: list } } });
    expect(second).toMatchObject({ changed: false, reason: 'already-subscribed', result: { Uid: first.result.Uid } });
  });
});
