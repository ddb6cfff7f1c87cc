// The Node binaries a test of escaped keys runs the built bo on: the one running the
// suite, and a pinned release whose JSON.parse misreads escaped object keys (Node
// 24.21.0, nodejs/node#63785), named by BO_AFFECTED_NODE (.ci/run fetches it from the npm
// registry). Locally, without it, the pinned runs are skipped with that reason; under CI
// the check below fails instead.
import { execFileSync } from 'node:child_process';

export const AFFECTED_NODE = process.env.BO_AFFECTED_NODE || undefined;
export const underCi = !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());

export interface NodeToRun {
  name: string;
  /** undefined: not there (skip with the name's reason). */
  node: string | undefined;
}

export const nodesToRun: NodeToRun[] = [
  { name: `the Node running the suite (${process.version})`, node: process.execPath },
  {
    name: AFFECTED_NODE ? 'the pinned Node 24.21.0, whose JSON.parse misreads escaped keys' : 'the pinned Node 24.21.0 (skipped: BO_AFFECTED_NODE is not set; .ci/run sets it)',
    node: AFFECTED_NODE,
  },
];

/** Whether `node`'s JSON.parse misreads escaped keys, seen directly (on a map of its own). */
export function misreadsEscapedKeys(node: string): boolean {
  const script = `JSON.parse('{"probe":0,"\\\\\\\\":0}'); console.log(Object.keys(JSON.parse('{"probe":0,"\\\\f":0}'))[1] !== '\\f')`;
  return execFileSync(node, ['-e', script], { encoding: 'utf8' }).trim() === 'true';
}
