// The state folder: what bo keeps between runs that is neither a setting nor data the
// user made (plans waiting for a person to apply them). $BO_STATE_DIR, else
// $XDG_STATE_HOME/bo when that is an absolute path, else ~/.local/state/bo when HOME
// exists. A missing HOME is never created: then there is no state folder.

import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export function stateDir(env: Record<string, string | undefined>): string | undefined {
  if (env.BO_STATE_DIR) return env.BO_STATE_DIR;
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'bo');
  if (env.HOME && existsSync(env.HOME)) return join(env.HOME, '.local', 'state', 'bo');
  return undefined;
}
