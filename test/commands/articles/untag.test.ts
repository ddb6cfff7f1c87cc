import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const tagged = () => sb.fixtures.articles.filter((a) => a.tagUids.length > 0);
const tagsOf = async (uid: string) => ((await sb.record('Article', uid)).Tags as unknown[]).map((t) => (typeof t === 'string' ? t : (t as { Uid: string }).Uid));

describe('bo articles untag', () => {
  it('removes the tag from the article only (piped: one outcome line naming the tag; nothing on stderr)', async () => {
    const { uid, tagUids } = tagged()[0]!;
    const tag = tagUids[0]!;
    const r = await runBo(['articles', 'untag', uid, tag], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${uid}\tok\tRemovedTag=${tag}\n`);
    expect(r.stderr).toBe('');
    expect(await tagsOf(uid)).not.toContain(tag);
    expect(await sb.record('Tag', tag)).not.toBeNull();
  });

  it('is idempotent: an absent tag exits 0; the line says it had no such tag, the server\'s words are a note (TTY); --json changed false, no-such-tag', async () => {
    const { uid, tagUids } = tagged()[0]!;
    const tag = tagUids[0]!;
    const before = await tagsOf(uid);
    const tty = await runBo(['--no-color', 'articles', 'untag', uid, tag], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe(`✔ Article ${uid} had no such tag\n`);
    expect(tty.stderr).toBe(`Article ${uid} has no tag ${tag}; nothing changed\n`);
    const json = await runBo(['articles', 'untag', uid, tag, '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      uid,
      ok: true,
      status: 200,
      changed: false,
      reason: 'no-such-tag',
      error: null,
      answer: `Article ${uid} has no tag ${tag}; nothing changed`,
    });
    expect(await tagsOf(uid)).toEqual(before);
  });

  it('--dry-run prints the request a real run then sends, and sends nothing', async () => {
    const { uid, tagUids } = tagged()[1]!;
    const tag = tagUids[0]!;
    const before = (await sb.activity()).length;
    const dry = await runBo(['articles', 'untag', uid, tag, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({ method: 'DELETE', url: `${sb.url}/api/v1/support/articles/${uid}/tags/${tag}`, body: null });
    expect(await sb.activity()).toHaveLength(before);
    expect(await tagsOf(uid)).toContain(tag);
    await runBo(['articles', 'untag', uid, tag], { env: testEnv(sb) });
    const sent = (await sb.activity()).slice(before);
    expect(sent.map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`${planned.method} ${planned.url}`]);
  });

  it('exits 2 for a malformed article or tag Uid, sending nothing; 3 for an unknown article', async () => {
    const before = (await sb.activity()).length;
    const badTag = await runBo(['articles', 'untag', tagged()[0]!.uid, 'a b'], { env: testEnv(sb) });
    expect(badTag.code).toBe(2);
    expect(badTag.stderr).toMatch(/^error: <tagUid> must be a Uid/);
    const badArticle = await runBo(['articles', 'untag', 'x/y', 'tag_1'], { env: testEnv(sb) });
    expect(badArticle.code).toBe(2);
    expect(badArticle.stderr).toMatch(/^error: <articleUid> must be a Uid/);
    expect(await sb.activity()).toHaveLength(before);
    const missing = await runBo(['articles', 'untag', 'art_missing', 'tag_1'], { env: testEnv(sb) });
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')[0]).toBe('error: article "art_missing" not found');
  });

  it('removes one tag from every article read from stdin, the tag fixed', async () => {
    const tag = tagged()[2]!.tagUids[0]!;
    const withTag = sb.fixtures.articles.filter((a) => a.tagUids.includes(tag)).map((a) => a.uid);
    const r = await runBo(['articles', 'untag', '-', tag], { env: testEnv(sb), stdin: withTag.map((u) => JSON.stringify({ Uid: u })).join('\n') });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${withTag.length} untagged on ${sb.url} (profile default)\n`);
    for (const uid of withTag) expect(await tagsOf(uid)).not.toContain(tag);
  });

  it('--help shows examples, a batch one included', async () => {
    const r = await runBo(['articles', 'untag', '--help']);
    expect(r.stdout).toMatch(/\| bo articles untag - tag_\w+/);
  });
});
