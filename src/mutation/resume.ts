// What `bo batch resume` hands the batch runner: the journal's knowledge of
// the interrupted run, line by line. The runner reads the same input again; a record
// whose outcome is known (done, failed) is not sent again, one never sent is sent, and
// one sent with no answer recorded follows the verb's `resend`: sent again when a
// repeat cannot harm ('safe'), read back first ('check'), else left for the person
// (`--resend-unknown` sends it).

import { UsageError } from '../errors.js';
import type { Resend, ResumeOrder } from './types.js';

/** What the resume does with one record. */
export type ResumeStep = 'skip' | 'send' | 'check' | 'hold';

export function resumeStep(order: ResumeOrder, line: number, resend: Resend): ResumeStep {
  const known = order.known.get(line);
  if (known === undefined) return 'send';
  if (known.outcome !== 'unknown') return 'skip';
  if (order.resendUnknown || resend === 'safe') return 'send';
  return resend === 'check' ? 'check' : 'hold';
}

/**
 * The step for a record read again, after checking the input's running digest where the
 * run sent it: a different input is exit 2 before anything is sent.
 */
export function resumeStepChecked(order: ResumeOrder, line: number, read: string, resend: Resend): ResumeStep {
  const known = order.known.get(line);
  if (known?.read !== undefined && known.read !== read) throw changedInput(order.run, line);
  return resumeStep(order, line, resend);
}

/** The input read again is not the one the run read: exit 2, nothing sent. */
export function changedInput(run: string, line: number): UsageError {
  return new UsageError(`the input differs from what run ${run} read (from line ${line}): resume reads the same input again; nothing was sent`);
}
