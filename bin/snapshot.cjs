// The single executable's main script when it is built with a startup snapshot
// (scripts/build-binary.mjs, `"useSnapshot": true`): Node runs this once at build time,
// with `require` for built-in modules only, and freezes the heap it leaves behind. It
// loads the main bundle (dist/bo.cjs, bundled into this file by the build), runs the
// warm-up (bin/warm-up.cjs) so the functions of common commands are compiled into the
// snapshot, and names bin/bo.js (bundled too) as what runs when the executable starts:
// it finds the bundle already loaded (bin/sea.cjs `warmed`) and everything else (the
// lazy chunks, the keychain helper, completion) in the extracted folder, as without a
// snapshot. Nothing of the build machine is read here: the build runs this with an
// empty environment, and bo reads the environment, time zone and locale when it runs.
'use strict';
const v8 = require('node:v8');
const sea = require('./sea.cjs');
const { warmUp } = require('./warm-up.cjs');

sea.warmed = require('bo-main-bundle');
warmUp(sea.warmed).then(
  () => v8.startupSnapshot.setDeserializeMainFunction(() => require('./bo.js')),
  (err) => {
    // The build fails (scripts/build-binary.mjs shows this) rather than freezing half a warm-up.
    process.stderr.write(`warm-up failed: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
