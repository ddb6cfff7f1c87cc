// What the runner reads of a mutation's declared target (types.ts TargetDeclaration), in
// one place: its label in messages, whether it takes a `-` batch, how a target is
// checked, and how a batch record names it.

import { checkUid } from '../input/validate.js';
import type { TargetDeclaration } from './types.js';

/** Names the target in messages: '<subscriptionAddOnUid>', or the option's flag '--email'. */
export const targetLabel = (t: TargetDeclaration): string => t.name.split(' ')[0]!;

/** Given by an option (`--email <address>`), not as an argument. */
export const byOption = (t: TargetDeclaration): boolean => t.name.startsWith('--');

/** Checks one target (UsageError naming the label): the verb's own check, else a Uid's. */
export const targetCheck = (t: TargetDeclaration): ((label: string, value: string) => string) => t.check ?? checkUid;

/** The JSON Lines property that carries a batch record's target. */
export const recordKey = (t: TargetDeclaration): string => t.recordKey ?? 'Uid';

/** Another name a record may give an option target: its flag without dashes (`name` for --name). */
export const recordAlias = (t: TargetDeclaration): string | undefined => (byOption(t) ? targetLabel(t).replace(/^--/, '') : undefined);
