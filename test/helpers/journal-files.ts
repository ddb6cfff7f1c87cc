// Run files of the journal written directly, in the format src/journal/journal.ts writes
// (a header, a `send` before each change with the input's running digest, an `outcome`
// after its answer, an `end`): a run of any size, interrupted at any point, without
// sending anything. Written a piece at a time, so a run of a million changes is cheap.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { inputDigest } from '../../src/journal/input-digest.js';

export interface RunFileSpec {
  id: string;
  /** The batch's input: one Uid a line (line numbers from 1). */
  uids: string[];
  /** How many of the first lines were sent; of those, the last `unknown` have no outcome. */
  sent: number;
  unknown?: number;
  /** Lines whose outcome is a failure (400). */
  failed?: Set<number>;
  profile?: string;
  origin?: string;
  /** Without the leading verb words' `-`: e.g. `accounts cancel - --reason x`. */
  command?: string;
  batch?: boolean;
  /** Written with an `end` entry (finished), else interrupted. */
  finished?: boolean;
  at?: string;
}

/** Writes `<folder>/<id>.jsonl` (0600); returns its path. */
export function writeRunFile(folder: string, spec: RunFileSpec): string {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, `${spec.id}.jsonl`);
  const fd = openSync(file, 'wx', 0o600);
  const at = spec.at ?? '2026-11-28T05:03:47.000Z';
  let out: string[] = [];
  const flush = () => {
    writeSync(fd, out.join(''));
    out = [];
  };
  try {
    const header = {
      t: 'run',
      v: 1,
      run: spec.id,
      pid: 999_999,
      at,
      profile: spec.profile ?? 'sandbox',
      origin: spec.origin ?? 'the embedded sandbox',
      command: spec.command ?? 'accounts cancel - --reason x',
      batch: spec.batch ?? true,
    };
    out.push(`${JSON.stringify(header)}\n`);
    let read = '';
    const answered = spec.sent - (spec.unknown ?? 0);
    for (let line = 1; line <= spec.sent; line++) {
      const uid = spec.uids[line - 1]!;
      read = inputDigest(read, { line, target: uid });
      out.push(
        `{"t":"send","n":${line},"line":${line},"uid":"${uid}","method":"PUT","path":"/crm/accounts/${uid}/cancel","fields":["CancelationReason"],"digest":"${'0'.repeat(64)}","read":"${read}","at":"${at}"}\n`,
      );
      if (line <= answered) {
        const ok = !spec.failed?.has(line);
        out.push(`{"t":"outcome","n":${line},"status":${ok ? 200 : 400},"ok":${ok},${ok ? '' : '"code":"invalid",'}"at":"${at}"}\n`);
      }
      if (out.length >= 4096) flush();
    }
    if (spec.finished) out.push(`{"t":"end","at":"${at}","notAttempted":0}\n`);
    flush();
  } finally {
    closeSync(fd);
  }
  return file;
}

/** `count` Uids that pass bo's check and name no record: `acc_t0000001` … */
export function fakeUids(count: number, prefix = 'acc_t'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(7, '0')}`);
}
