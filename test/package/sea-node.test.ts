// The Node release the single executable embeds is pinned in scripts/sea-node-version, a
// Node 24 release whose JSON.parse reads escaped object keys right (nodejs/node#63785:
// 24.21.0 misreads them; 24.22.3 is the first checked). The check runs that release's
// binary from node_modules/.cache/bo-binary/, where build:binary keeps it (CI builds the
// executable before the suite, so there it must be present; locally, without a build,
// the check is skipped with that reason).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { misreadsEscapedKeys, underCi } from '../helpers/affected-node.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const pinned = readFileSync(join(repo, 'scripts/sea-node-version'), 'utf8').trim();
const node = join(repo, `node_modules/.cache/bo-binary/node-${process.platform}-${process.arch}-${pinned}/package/bin/node`);
const fetched = existsSync(node);

describe("the single executable's Node", () => {
  it('is pinned to a Node 24 release no older than 24.22.3', () => {
    const [major, minor, patch] = pinned.split('.').map(Number) as [number, number, number];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major).toBe(24);
    expect(minor * 1000 + patch).toBeGreaterThanOrEqual(22 * 1000 + 3);
  });

  it.skipIf(!fetched && !underCi)(
    `reads escaped object keys right${fetched ? '' : ' (skipped: no build:binary has fetched it into node_modules/.cache/bo-binary/ here)'}`,
    () => {
      expect(fetched, `${node}: missing (build:binary fetches it)`).toBe(true);
      expect(misreadsEscapedKeys(node)).toBe(false);
    },
  );
});
