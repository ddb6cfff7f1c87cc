#!/usr/bin/env node
// Resume benchmark: `bo batch resume` of an interrupted `addons expire -` batch of N
// changes (default 1,000,000) against `bo sandbox serve --memory` as a real process. The
// run's journal file and its input file are written here directly, in the journal's
// format (as test/helpers/journal-files.ts writes them): every change done but the last
// 10 records, never sent, which the resume sends (real add-ons of the sandbox). Prints
// the resume's wall time, its peak resident set (/usr/bin/time -v) and the journal file's
// size; exits 1 when the peak reaches 400 MiB.
//
//   npm run build && node test/bench/resume.mjs [--records N]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchEnv, benchRoot as root, numberOption, serveSandbox } from './serve-sandbox.mjs';

const records = numberOption('--records', 1_000_000);
if (!Number.isInteger(records) || records < 20) throw new Error('--records must be a whole number of at least 20');
const LEFT = 10;
const PEAK_LIMIT_MIB = 400;
if (!existsSync(join(root, 'dist', 'bo.cjs'))) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });

const env = benchEnv();
const { url, child } = await serveSandbox({ env, cwd: root });
const work = mkdtempSync(join(tmpdir(), 'bo-bench-resume-'));
try {
  const fixtures = await (await fetch(`${url}/__sandbox/fixtures`)).json();
  const real = fixtures.subscriptionAddOns.slice(0, LEFT);
  const uids = (i) => (i < records - LEFT ? `subaddon_b${String(i + 1).padStart(8, '0')}` : real[i - (records - LEFT)]);

  // The input, one Uid a line.
  const input = join(work, 'addons.txt');
  writeInPieces(input, function* () {
    for (let i = 0; i < records; i++) yield `${uids(i)}\n`;
  });
  // The run: its header names the input file (the resume reads it again by itself).
  const id = '20261128T050347-benchr';
  const state = join(work, 'state');
  mkdirSync(join(state, 'journal'), { recursive: true, mode: 0o700 });
  const at = new Date().toISOString();
  const header = { t: 'run', v: 1, run: id, pid: 999_999, at, profile: 'default', origin: url, command: 'addons expire -', batch: true, input: { path: input, size: statSync(input).size } };
  const runFile = join(state, 'journal', `${id}.jsonl`);
  writeInPieces(runFile, function* () {
    yield `${JSON.stringify(header)}\n`;
    let read = '';
    for (let line = 1; line <= records - LEFT; line++) {
      const uid = uids(line - 1);
      // The input's running digest (src/journal/input-digest.ts), over each record as bo reads it.
      read = createHash('sha256').update(read).update('\n').update(JSON.stringify({ line, target: uid })).digest('hex');
      yield `{"t":"send","n":${line},"line":${line},"uid":"${uid}","method":"PUT","path":"/billing/subscriptionaddons/${uid}/expire","fields":[],"read":"${read}","at":"${at}"}\n` +
        `{"t":"outcome","n":${line},"status":200,"ok":true,"at":"${at}"}\n`;
    }
  });

  const runEnv = { ...env, BO_CONFIG_DIR: join(work, 'config'), BO_STATE_DIR: state, BO_BASE_URL: url, BO_API_KEY: fixtures.apiKey.key, BO_API_SECRET: fixtures.apiKey.secret };
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, join(root, 'bin', 'bo.js'), 'batch', 'resume', 'last'], { env: runEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t;
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !kb) throw new Error(`bo batch resume: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const sent = r.stdout.split('\n').filter((l) => /\tok\t/.test(l)).length;
  if (sent !== LEFT) throw new Error(`the resume reported ${sent} successes, not ${LEFT}:\n${r.stdout.slice(0, 2000)}`);
  const peak = Number(kb[1]) / 1024;
  console.log(`records     ${records}`);
  console.log(`journal     ${Math.round(statSync(runFile).size / 1048576)} MiB`);
  console.log(`resume      ${Math.round(ms)} ms (${LEFT} sent, ${records - LEFT} not sent again)`);
  console.log(`peak RSS    ${Math.round(peak)} MiB`);
  if (peak >= PEAK_LIMIT_MIB) {
    console.error(`the resume must peak under ${PEAK_LIMIT_MIB} MiB; it peaked at ${Math.round(peak)} MiB`);
    process.exitCode = 1;
  }
} finally {
  child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

/** Writes what `pieces` yields, a few MB at a time. */
function writeInPieces(path, pieces) {
  const fd = openSync(path, 'wx', 0o600);
  try {
    let out = [];
    let size = 0;
    for (const piece of pieces()) {
      out.push(piece);
      size += piece.length;
      if (size >= 4 << 20) {
        writeSync(fd, out.join(''));
        out = [];
        size = 0;
      }
    }
    writeSync(fd, out.join(''));
  } finally {
    closeSync(fd);
  }
}
