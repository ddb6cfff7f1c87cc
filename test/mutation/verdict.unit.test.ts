// Whether a change changed anything (D32), near the runner: the verbs' declared verdicts
// (the sandbox's sentences tell, any other answer does not), a failure's, the words of
// the outcome line and the summary, and the journal's outcome entry read back (an older
// run's, written without `changed`, reads as null).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/api/http-types.js';
import { readRun } from '../../src/journal/read.js';
import { doneText, emptyTally, summaryLine, tallied, type Done, type Outcome } from '../../src/mutation/outcomes.js';
import { bySentence, changedIfRecord, failureVerdict } from '../../src/mutation/verdict.js';

const answer = (body: unknown, status = 200): ApiResponse => ({ status, headers: {}, body });
const expireSentences = { changed: /^Add-on expired at \S+$/, unchanged: /^Add-on already ended at \S+$/, reason: 'already-ended' as const };

describe('a verb\'s verdict from its answer', () => {
  it('the sandbox\'s sentences tell; another sentence, a record or nothing does not', () => {
    expect(bySentence(answer('Add-on expired at 2026-11-28T05:03:47.000Z'), expireSentences)).toEqual({ changed: true, reason: null });
    expect(bySentence(answer('Add-on already ended at 2026-11-28T05:03:47.000Z'), expireSentences)).toEqual({ changed: false, reason: 'already-ended' });
    for (const body of ['OK', 'Add-on sa_1 expired', 'Add-on expired', { Uid: 'sa_1' }, undefined]) {
      expect(bySentence(answer(body), expireSentences), JSON.stringify(body)).toEqual({ changed: null, reason: null });
    }
  });

  it('a record answer proves a merge was applied; anything else cannot tell', () => {
    expect(changedIfRecord(answer({ Uid: 'deal_1' }))).toEqual({ changed: true, reason: null });
    for (const body of [undefined, 'Saved', ['x'], null]) expect(changedIfRecord(answer(body, 204))).toEqual({ changed: null, reason: null });
  });

  it('a failure: a 4xx is a refusal (nothing changed), a 5xx or no answer is not known, a record not sent changed nothing', () => {
    expect(failureVerdict(404)).toEqual({ changed: false, reason: 'refused' });
    expect(failureVerdict(429)).toEqual({ changed: false, reason: 'refused' });
    expect(failureVerdict(503)).toEqual({ changed: null, reason: null });
    expect(failureVerdict(null)).toEqual({ changed: null, reason: null });
    expect(failureVerdict(null, false)).toEqual({ changed: false, reason: 'not-sent' });
  });
});

describe('what the line and the summary say', () => {
  const done = (extra: Partial<Done>): Done => ({ kind: 'Article', uid: 'art_1', done: 'untagged', fields: [['RemovedTag', 'tag_1']], changed: true, reason: null, ...extra });

  it('changed: the fields; unchanged: the reason and the note, no field; not known: the fields, or the neutral word', () => {
    expect(doneText(done({}), false)).toBe('art_1\tok\tRemovedTag=tag_1');
    expect(doneText(done({ changed: false, reason: 'no-such-tag', note: 'Article art_1 has no tag tag_1; nothing changed' }), false)).toBe(
      'art_1\tok\thad no such tag (Article art_1 has no tag tag_1; nothing changed)',
    );
    expect(doneText(done({ changed: false, reason: 'no-such-tag' }), true)).toBe('Article art_1 had no such tag');
    expect(doneText(done({ changed: null }), false)).toBe('art_1\tok\tRemovedTag=tag_1');
    expect(doneText(done({ changed: null, fields: [] }), false)).toBe('art_1\tok\tdone');
    expect(doneText(done({ changed: null, fields: [], neutral: 'requested' }), true)).toBe('Article art_1 requested');
  });

  it('the summary counts the changed with the verb\'s word, the unchanged by reason, the not known as done', () => {
    const where = { profile: 'default', origin: 'https://acme.example.com' };
    const tally = emptyTally();
    const outcome = (o: Partial<Outcome>): Outcome => ({ uid: 'x', line: 1, ok: true, status: 200, changed: true, reason: null, error: null, ...o });
    tallied(tally, outcome({}));
    tallied(tally, outcome({ changed: false, reason: 'already-ended' }));
    tallied(tally, outcome({ ok: false, status: 404, changed: false, reason: 'refused', error: { code: 'not_found', message: 'not found' } }));
    expect(summaryLine(tally, { done: 'expired' }, where)).toBe('1 expired, 1 already ended, 1 not found on https://acme.example.com (profile default)');
    const unknown = emptyTally();
    tallied(unknown, outcome({ changed: null }));
    tallied(unknown, outcome({ changed: null }));
    expect(summaryLine(unknown, { done: 'expired' }, where)).toBe('2 done on https://acme.example.com (profile default)');
    const none = emptyTally();
    tallied(none, outcome({ ok: false, status: 404, changed: false, reason: 'refused' }));
    expect(summaryLine(none, { done: 'expired' }, where)).toBe('0 expired, 1 not found on https://acme.example.com (profile default)');
  });
});

describe('the journal\'s outcome entry, read back', () => {
  it('changed and reason as written; an outcome written before them (an older run) reads as null', () => {
    const folder = mkdtempSync(join(tmpdir(), 'bo-verdict-'));
    const id = '20261128T050347-abcdef';
    const at = '2026-11-28T05:03:47.000Z';
    const entries = [
      { t: 'run', v: 1, run: id, pid: 1, at, profile: 'default', origin: 'https://acme.example.com', command: 'addons expire -', batch: true },
      { t: 'send', n: 1, line: 1, uid: 'sa_1', method: 'PUT', path: '/billing/subscriptionaddons/sa_1/expire', fields: [], at },
      { t: 'outcome', n: 1, status: 200, ok: true, changed: false, reason: 'already-ended', at },
      { t: 'send', n: 2, line: 2, uid: 'sa_2', method: 'PUT', path: '/billing/subscriptionaddons/sa_2/expire', fields: [], at },
      { t: 'outcome', n: 2, status: 200, ok: true, changed: true, at },
      { t: 'send', n: 3, line: 3, uid: 'sa_3', method: 'PUT', path: '/billing/subscriptionaddons/sa_3/expire', fields: [], at },
      { t: 'outcome', n: 3, status: 200, ok: true, at },
      { t: 'end', at, notAttempted: 0 },
    ];
    writeFileSync(join(folder, `${id}.jsonl`), entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const run = readRun(folder, id)!;
    expect(run.changes.map((c) => [c.uid, c.changed, c.reason])).toEqual([
      ['sa_1', false, 'already-ended'],
      ['sa_2', true, null],
      ['sa_3', null, null],
    ]);
    expect(run.summary).toMatchObject({ done: 3, changed: 1, unchanged: 1 });
  });
});
