// The single executable's bundles as ordinary files. scripts/build-binary.mjs makes every
// file of its dist/ build an asset, with `files.json` (each file's SHA-256) and `build-id`;
// here they are written once per build into a private folder of the user's cache,
// <cache>/bo/sea/<build id>/, from which bin/bo.js, the executable's main script (this
// file is bundled into it), requires them as Node's documentation says a single
// executable loads files from disk (module.createRequire), with Node's compile cache.
'use strict';
const sea = require('node:sea');
const fs = require('node:fs');
const path = require('node:path');
const { cacheFolder, owned, privateFolder } = require('./private-folder.cjs');

/** Marks a folder complete; written last, it records each file's SHA-256, size and times. */
const MARKER = '.complete.json';

/**
 * The folder of this build's files: under <cache>/bo/sea, or when there is none or it is
 * not the user's own (bin/private-folder.cjs), under a folder of the user's in the
 * temporary folder; none of those: a one-line error, exit 1.
 */
exports.bundles = () => {
  const files = JSON.parse(sea.getAsset('files.json', 'utf8'));
  const id = sea.getAsset('build-id', 'utf8');
  const user = `bo-sea-${process.getuid?.() ?? 'user'}`;
  const bases = [() => cacheFolder('sea'), () => path.join(require('node:os').tmpdir(), user)];
  for (const [i, baseOf] of bases.entries()) {
    const base = baseOf();
    try {
      if (!base) continue;
      privateFolder(base);
      const folder = path.join(base, id);
      if (!intact(folder, files)) extract(base, folder, files);
      return { folder, keyring: () => keyring(base, folder, files) };
    } catch (err) {
      if (i < bases.length - 1) continue;
      process.stderr.write(`bo: cannot write its files to ${base}: ${err.message}\n`);
      process.exit(1);
    }
  }
};

/** The keyring library's native module, loaded once its SHA-256 matches the asset's. */
function keyring(base, folder, files) {
  const file = path.join(folder, 'native', 'keyring.node');
  const sha256 = (bytes) => require('node:crypto').createHash('sha256').update(bytes).digest('hex');
  const matches = () => sha256(fs.readFileSync(file)) === files['native/keyring.node'];
  if (!matches()) {
    // Changed though its size and times are as recorded (what every run checks): write anew.
    discard(folder, `${folder}.tmp-${process.pid}-old`);
    extract(base, folder, files);
    if (!matches()) throw new Error(`${file} is not the keyring library of this bo`);
  }
  return require('node:module').createRequire(file)(file);
}

/**
 * The check every run pays (measured in the README, "A single file, without Node"): the
 * folder is the user's alone, and every file has the size, modification and change time
 * recorded when it was written. That finds a folder that is half-written (never renamed
 * into place, or without the record, which is written last), truncated, or edited: an
 * edit that restores the size and modification time (`touch -r`) still changes the
 * change time, which only the kernel sets. Hashing every file instead would cost a third
 * of a `bo --version`. The keyring's native module, which becomes code of the process,
 * is hashed before it is loaded (above).
 */
function intact(folder, files) {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(folder, MARKER), 'utf8'));
    if (!owned(fs.lstatSync(folder))) return false;
    return Object.entries(files).every(([key, sha256]) => {
      const stat = fs.lstatSync(path.join(folder, key));
      const kept = marker[key];
      if (kept?.sha256 !== sha256 || !stat.isFile()) return false;
      const { size, mtimeMs, ctimeMs } = kept;
      return stat.size === size && stat.mtimeMs === mtimeMs && stat.ctimeMs === ctimeMs;
    });
  } catch {
    return false; // not there yet, or a file missing
  }
}

/**
 * Writes every asset into a new folder beside `folder` (0700), the marker last, and
 * renames it into place: another process sees either no folder or a complete one. Two
 * first runs at once each write their own; the first rename wins and the other uses it.
 * A folder in the way that is not intact is moved aside and removed first.
 */
function extract(base, folder, files) {
  const fresh = fs.mkdtempSync(`${folder}.tmp-`);
  const marker = {};
  for (const [key, sha256] of Object.entries(files)) {
    const file = path.join(fresh, key);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, new Uint8Array(sea.getRawAsset(key)), { mode: 0o600 });
    fs.chmodSync(file, 0o600); // whatever the umask; the change time is taken after it
    const { size, mtimeMs, ctimeMs } = fs.statSync(file);
    marker[key] = { sha256, size, mtimeMs, ctimeMs };
  }
  fs.writeFileSync(path.join(fresh, MARKER), JSON.stringify(marker), { mode: 0o600 });
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(fresh, folder);
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
    if (intact(folder, files)) {
      fs.rmSync(fresh, { recursive: true, force: true }); // another process's, just made
      break;
    }
    discard(folder, `${fresh}-old`);
  }
  // Left by a run that was killed while writing (never used): removed after an hour.
  for (const name of fs.readdirSync(base).filter((n) => n.includes('.tmp-'))) {
    try {
      const left = path.join(base, name);
      const old = Date.now() - fs.lstatSync(left).mtimeMs > 3_600_000;
      if (old) fs.rmSync(left, { recursive: true, force: true });
    } catch {
      // another run removed it first
    }
  }
}

/** Moves `folder` out of the way (another process may have done so already), then removes it. */
function discard(folder, aside) {
  try {
    fs.renameSync(folder, aside);
  } catch {
    return;
  }
  fs.rmSync(aside, { recursive: true, force: true });
}
