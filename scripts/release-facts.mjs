// What a release build takes from the repository rather than from the machine or the
// clock, so two builds of one commit give the same bytes (scripts/build-binary.mjs,
// scripts/sbom.mjs, scripts/build-deb.mjs):
//   - the time stamped on every file: SOURCE_DATE_EPOCH when set (the convention of
//     reproducible-builds.org), else the last commit's time, else now (outside git);
//   - the commit itself, for the SBOM's serial number;
//   - the Node release the single executable embeds, pinned in scripts/sea-node-version
//     (changed by a commit, named in the SBOM).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

const git = (args) => {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
};

/** Seconds since 1970 for every time a build writes. */
export function sourceDateEpoch() {
  const env = process.env.SOURCE_DATE_EPOCH;
  if (env !== undefined && env !== '') {
    if (!/^\d+$/.test(env)) throw new Error(`SOURCE_DATE_EPOCH=${env}: not a whole number of seconds`);
    return Number(env);
  }
  const committed = git(['log', '-1', '--format=%ct']);
  return committed ? Number(committed) : Math.floor(Date.now() / 1000);
}

/** The commit built (40 hex digits), or '' outside a git checkout. */
export function commitId() {
  return git(['rev-parse', 'HEAD']);
}

/** The Node release the single executable embeds (scripts/sea-node-version), e.g. 24.22.3. */
export function seaNodeVersion() {
  const version = readFileSync(join(root, 'scripts/sea-node-version'), 'utf8').trim();
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`scripts/sea-node-version: ${JSON.stringify(version)} is not a Node release (such as 24.22.3)`);
  return version;
}

/** bo's version (package.json). */
export function boVersion() {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
}
