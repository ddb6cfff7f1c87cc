// Types of what src/ uses of bin/private-folder.cjs: the one judgement of who other than
// the user can change a file or a folder (src/files/owner.ts).
import type { Stats } from 'node:fs';

/** The user the rule protects: a uid, and the files that name users and groups. */
export interface Caller {
  uid: number;
  passwd: string;
  group: string;
}

/** How someone else could change a file: another owner (not root), the other-write bit,
 * a shared group's write bit. */
export type ForeignWrite = 'owner' | 'others' | 'group';

export function caller(given?: Partial<Caller>): Caller;
type Owned = Pick<Stats, 'uid' | 'gid' | 'mode'>;
export function foreignWrite(stat: Owned, who?: Caller): ForeignWrite | undefined;
type Changeable = { folder: string; how: ForeignWrite };
export function changeableAbove(dir: string, who?: Caller): Changeable | undefined;
