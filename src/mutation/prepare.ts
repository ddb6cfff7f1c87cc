// What each target of a mutation is sent with: the verb's fields from its flags, and in
// a `-` batch, from each JSON Lines record that carries some (overriding the flags for
// that record). A record whose fields do not pass the flags' checks, that names a key
// neither the verb nor the resource's record has, or that leaves nothing to change is
// invalid: reported, not sent; the others go on.

import { UsageError } from '../errors.js';
import * as v from '../input/validate.js';
import { recordFieldNames } from '../input/fields.js';
import { flagValues, nothingToChange, recordValues } from './fields.js';
import type { FieldValues } from './field.js';
import type { Context } from '../context.js';
import type { BoundMutation, MutationFlags } from './types.js';
import { recordAlias, recordKey } from './target.js';

/** One record's preparation: what request() takes, or why the record is invalid. */
export type Prepared<Prep> = { prep: Prep } | { error: string };

export interface Preparation<Prep> {
  /** The flags' preparation; undefined in a batch whose flags leave nothing to change. */
  once: Prep | undefined;
  /** A batch record's: its own fields over the flags'. */
  forRecord(rec: { line: number; record?: Record<string, unknown> }): Promise<Prepared<Prep>>;
}

/** Checks the flags (UsageError naming the flag: exit 2, nothing read or sent). */
export async function prepareMutation<Prep>(ctx: Context, m: BoundMutation<Prep>, flags: MutationFlags, batch: boolean): Promise<Preparation<Prep>> {
  const { def } = m;
  const fields = def.fields ?? [];
  // The values into what request() takes: the verb's prepare, else the values as they are.
  const prepare = async (values: FieldValues): Promise<Prep> => (def.prepare ? def.prepare(values as never, m.args as never, ctx) : (values as Prep));
  const target = { recordKey: recordKey(def.target), recordAlias: recordAlias(def.target) };
  const fromFlags = await flagValues(fields, flags, v);
  const lacking = def.needsField === true && Object.keys(fromFlags).length === 0;
  // In a batch the records may bring the fields: "nothing to change" is then each record's.
  if (lacking && !batch) throw new UsageError(nothingToChange(fields));
  const once: { prep: Prep } | undefined = lacking ? undefined : { prep: await prepare(fromFlags) };
  let ignored: ReadonlySet<string> | undefined;
  return {
    once: once?.prep,
    async forRecord(rec) {
      const where = `line ${rec.line}`;
      if (rec.record === undefined) return once ?? { error: `${where}: ${nothingToChange(fields, true)}` };
      ignored ??= recordFieldNames(def.target.resource);
      try {
        const own = await recordValues(fields, rec.record, where, target, ignored, v);
        if (Object.keys(own).length === 0) return once ?? { error: `${where}: ${nothingToChange(fields, true)}` };
        try {
          return { prep: await prepare({ ...fromFlags, ...own }) };
        } catch (err) {
          if (err instanceof UsageError) return { error: `${where}: ${err.message}` };
          throw err;
        }
      } catch (err) {
        if (err instanceof UsageError) return { error: err.message };
        throw err;
      }
    },
  };
}
