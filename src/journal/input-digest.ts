// The running digest of a batch's input: a SHA-256 chain over the records read
// so far, each as bo read it (line number, target and fields, or why it was invalid).
// Kept in each journal entry, so a resume can tell whether it reads the same input.

import { createHash } from 'node:crypto';

/** The digest after `record`, given the digest before it ('' at the start). */
export function inputDigest(before: string, record: unknown): string {
  return createHash('sha256').update(before).update('\n').update(JSON.stringify(record)).digest('hex');
}
