// Whether a change changed anything (D32): the one vocabulary of `changed` and `reason`.
// Each verb declares how its answer tells (define.ts `changed`); the runner asks once per
// outcome and every form shows the same verdict: the outcome line, the summary, --json,
// the journal's outcome entry, `bo history` and `bo mcp`.

import type { ApiResponse } from '../api/http-types.js';
import type { Reason, Verdict } from './types.js';

export const CHANGED: Verdict = { changed: true, reason: null };
/** Not known: the answer does not say (a tenant's own sentence, an empty answer). */
export const UNKNOWN: Verdict = { changed: null, reason: null };

export function unchanged(reason: Reason): Verdict {
  return { changed: false, reason };
}

/** What a summary and an outcome line say for a reason: `1 expired, 1 already ended`. */
export const REASON_WORDS: Record<Reason, string> = {
  'already-ended': 'already ended',
  'no-such-tag': 'had no such tag',
  'already-subscribed': 'already subscribed',
  refused: 'refused',
  'not-sent': 'not sent',
  'already-holds': 'already held',
};

/** The answer is a JSON record (an object): the record saved, as D17 has it. */
export function isRecord(body: unknown): boolean {
  return body !== null && typeof body === 'object' && !Array.isArray(body);
}

/** True when the answer is the record the change saved; else (204, a sentence, nothing) not known. */
export function changedIfRecord(res: ApiResponse): Verdict {
  return isRecord(res.body) ? CHANGED : UNKNOWN;
}

/**
 * An answer that is a sentence the service does not specify: the sandbox's own sentences
 * tell (`changed` or `unchanged` matching it whole); any other text is not known.
 */
export function bySentence(res: ApiResponse, sentences: { changed: RegExp; unchanged: RegExp; reason: Reason }): Verdict {
  const text = typeof res.body === 'string' ? res.body : undefined;
  if (text === undefined) return UNKNOWN;
  if (sentences.unchanged.test(text)) return unchanged(sentences.reason);
  if (sentences.changed.test(text)) return CHANGED;
  return UNKNOWN;
}

/**
 * A change that failed: a 4xx answer is a refusal, so nothing changed; a 5xx, a lost
 * answer or an interruption may have acted (D30), so not known; a record never sent
 * changed nothing.
 */
export function failureVerdict(status: number | null | undefined, sent = true): Verdict {
  if (!sent) return unchanged('not-sent');
  return typeof status === 'number' && status >= 400 && status < 500 ? unchanged('refused') : UNKNOWN;
}
