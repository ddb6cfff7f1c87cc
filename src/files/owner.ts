// Who other than the user can change a file or a folder: the one judgement, kept in
// bin/private-folder.cjs (the shim checks its compile cache with it before any bundle
// loads) and used from here by the state folder (D34, state.ts) and the CA file
// (src/api/ca-file.ts). Someone else can change it when it is neither the user's nor
// root's, has the other-write bit, or the group-write bit of a group with a member other
// than the user (/etc/group's members and the users whose primary group it is); for the
// folders above it, a sticky folder of root's (/tmp) is allowed. Windows has no owners
// or modes here: nothing is judged there.

import { caller, changeableAbove, foreignWrite, type Caller, type ForeignWrite } from '../../bin/private-folder.cjs';

export type { Caller, ForeignWrite };

/** Whether owners and modes are judged on this platform (not on Windows). */
export const judgesOwners = process.platform !== 'win32';

/** The user a check protects: this process's, or `given` (tests: another uid, no root needed). */
export function callerOf(given?: Partial<Caller>): Caller {
  return caller(given);
}

export { changeableAbove, foreignWrite };

/** How `how` reads after "which": `which another user owns`. */
export function foreignWords(how: ForeignWrite): string {
  if (how === 'owner') return 'another user owns';
  if (how === 'others') return 'every user can write';
  return 'its group can write, and that group has other members';
}
