// The keys of a tool result as the agent gets them. A value is made harmless as text
// output makes it (neutralise.ts: escape sequences dropped, tab and newline made spaces,
// hidden characters shown as `\u202e`), but a key cannot be: two keys made equal would
// be one key of the object the agent reads, one value lost and the other under a name
// it does not have. So a key that holds such a character, or a secret of the run, is
// written instead with JSON escapes (as `--json` writes it: `"Tier\u202e01"` decodes
// back to the server's key), and the result lists it in `keysChanged` (call.ts). A key
// that was harmless as it came but reads as another key's escaped form is escaped too,
// so no shown key can be taken for another: every key of a result stays distinct.

import { escapeJson, neutralise } from '../api/neutralise.js';

/** A key's JSON escapes, without the quotes: C0 controls, quote and backslash as JSON writes them, hidden characters as `\uXXXX`. */
export function escapedKey(key: string): string {
  return escapeJson(JSON.stringify(key).slice(1, -1));
}

/**
 * The keys of `value` (at any depth) that are shown otherwise, each with the name it is
 * shown under; every other key is shown as it is. `scrub` removes the run's secrets.
 */
export function keyNames(value: unknown, scrub: (text: string) => string): Map<string, string> {
  const keys = new Set<string>();
  collectKeys(value, keys);
  const names = new Map<string, string>();
  const added: string[] = [];
  for (const key of keys) {
    const scrubbed = scrub(key);
    if (scrubbed === key && neutralise(key) === key) continue;
    const name = escapedKey(scrubbed);
    names.set(key, name);
    added.push(name);
  }
  // A kept key equal to a name given above is escaped in its turn (its backslashes doubled), and so on.
  for (let name = added.pop(); name !== undefined; name = added.pop()) {
    if (!keys.has(name) || names.has(name)) continue;
    const escaped = escapedKey(name);
    names.set(name, escaped);
    added.push(escaped);
  }
  return names;
}

function collectKeys(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectKeys(item, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      collectKeys(item, into);
    }
  }
}
