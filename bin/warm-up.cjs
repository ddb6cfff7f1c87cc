// The warm-up of the single executable's startup snapshot (bin/snapshot.cjs): common
// command paths run once in the process that builds the snapshot, so that V8 has
// compiled their functions by the time the snapshot is taken and a restored process
// runs them without compiling them again. It touches nothing of the user's or of the
// machine's: `bo` runs on in-memory streams, with an environment of its own whose
// folders do not exist, against a stand-in server in this process (RunOptions.server):
// no socket, no port. node:http cannot be used here at all: its parser binding is a
// handle a snapshot cannot hold (the build aborts). stdin, stdout, stderr and the
// terminal are never used.
'use strict';
const path = require('node:path');
const { PassThrough } = require('node:stream');

/** Canned answers of the stand-in, shaped as the service's (api/SERVICE-API.md). */
const ACCOUNTS = { metadata: { limit: 2, offset: 0, total: 2 }, items: ['a', 'b'].map((x) => ({ Uid: `acc_warm${x}`, Name: `Warm ${x}`, AccountStage: 3, AccountStageLabel: 'Subscribing', Currency: 'EUR', Created: '2026-01-01T00:00:00.000Z' })) };

/** The stand-in (RunOptions.server): every request answered in this process. */
const standIn = async (req) => ({
  status: 200,
  statusText: 'OK',
  headers: { 'content-type': 'application/json; charset=utf-8' },
  text: JSON.stringify(req.method === 'GET' ? ACCOUNTS : 'Add-on expired at 2026-01-01T00:00:00.000Z'),
});

/** The commands run, each as a user would type it: help, writes, reads, a bad option. */
const COMMANDS = [
  ['--help'],
  ['addons', 'expire', '--help'],
  ['accounts', 'list', '--help'],
  ['addons', 'expire', 'subaddon_warmup'],
  ['addons', 'expire', 'subaddon_warmup', '--json'],
  ['accounts', 'list', '--limit', '2'],
  ['accounts', 'list', '--limit', '2', '--json'],
  ['accounts', 'list', '--limit', 'x'],
  ['no-such-command'],
];

/** Runs COMMANDS through `bundle.run` (dist/bo.cjs's); resolves once all is closed. */
exports.warmUp = async (bundle) => {
  // Node's AbortSignal.any registers each signal it makes with a FinalizationRegistry,
  // and a registry with dead entries cannot be frozen (the build aborts): while the
  // warm-up runs, a plain equivalent stands in for it; Node's is back before the snapshot.
  const any = AbortSignal.any;
  AbortSignal.any = plainAny;
  try {
    await runAll(bundle);
  } finally {
    AbortSignal.any = any;
  }
};

/** AbortSignal.any without weak references: aborted with the first of `signals`. */
function plainAny(signals) {
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

async function runAll(bundle) {
  const none = path.join(path.sep, 'nonexistent', 'bo-warm-up');
  const env = { HOME: none, BO_CONFIG_DIR: none, BO_DATA_DIR: none, BO_BASE_URL: 'https://warm-up.invalid', BO_API_KEY: 'warm-up', BO_API_SECRET: 'warm-up' };
  for (let round = 0; round < 2; round++) {
    for (const argv of COMMANDS) {
      const stdin = new PassThrough();
      stdin.end();
      const stdout = new PassThrough().resume();
      const stderr = new PassThrough().resume();
      const io = { stdin, stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, env };
      await bundle.run(argv, { io, server: standIn });
    }
  }

};
