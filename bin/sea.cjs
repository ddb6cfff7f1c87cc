// The single executable's files (scripts/build-binary.mjs): every file of its dist/
// build is an asset under its path relative to dist/, and the keyring library's native
// module is `native/keyring.node`. bin/bo.js, the executable's main script, takes
// read/load/keyring from here instead of dist/ (esbuild bundles this file into it).
'use strict';
const sea = require('node:sea');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

/** `cacheFolder(name)`: a folder of bo's in the user's cache folder, or undefined. */
exports.assets = (cacheFolder) => {
  const loaded = new Map();
  const buildId = sea.getAsset('build-id', 'utf8');

  /**
   * A CommonJS bundle evaluated from its asset, once, as Node evaluates a file: its
   * `require` of a relative path gives another asset, of `@napi-rs/keyring` the keyring
   * library, of anything else a Node built-in (a binary build leaves nothing else
   * external); import() of a built-in goes to Node's loader. V8's code cache of each
   * bundle is kept as Node's compile cache keeps that of files (bin/bo.js): made at the
   * exit of the first run of this build, and used after (measured: without it a
   * `--sandbox` command starts slower than `node bin/bo.js`, which has Node's cache).
   */
  function load(key) {
    if (loaded.has(key)) return loaded.get(key).exports;
    const module = { exports: {} };
    loaded.set(key, module);
    const folder = cacheFolder('code-cache');
    const cacheFile = folder && path.join(folder, `${buildId}-${key.replaceAll('/', '-')}`);
    let cachedData;
    try {
      cachedData = cacheFile ? fs.readFileSync(cacheFile) : undefined;
    } catch {
      cachedData = undefined; // the first run of this build
    }
    // No such file: it names the bundle in stack traces, and a data file of dist/ beside
    // it, `new URL('./x.wasm', import.meta.url)`, as the asset path.relative(execPath, …).
    const filename = path.join(process.execPath, key);
    const source = `(function (exports, require, module, __filename, __dirname) {${sea.getAsset(key, 'utf8')}\n})`;
    const script = new vm.Script(source, { filename, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    if (cacheFile && (!cachedData || script.cachedDataRejected)) process.once('exit', () => keep(cacheFile, () => script.createCachedData()));
    const requireFrom = (id) => (id.startsWith('.') ? load(path.posix.join(path.posix.dirname(key), id)) : id === '@napi-rs/keyring' ? keyring() : require(id));
    script.runInThisContext().call(module.exports, module.exports, requireFrom, module, filename, path.dirname(filename));
    return module.exports;
  }

  /**
   * The keyring library's native module, as Node's documentation says for addons in a
   * single executable: written to a file, loaded with process.dlopen. The file is in a
   * private (0700) folder of the user's cache, named and checked by the asset's SHA-256
   * before it is loaded.
   */
  function keyring() {
    const bytes = new Uint8Array(sea.getRawAsset('native/keyring.node'));
    const sha256 = (data) => require('node:crypto').createHash('sha256').update(data).digest('hex');
    const hash = sha256(bytes);
    const folder = cacheFolder('native') ?? path.join(require('node:os').tmpdir(), `bo-native-${process.getuid?.() ?? 'user'}`);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid())) throw new Error(`${folder} is not a folder of this user`);
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) fs.chmodSync(folder, 0o700);
    const file = path.join(folder, `keyring-${hash.slice(0, 16)}.node`);
    const intact = () => {
      try {
        return sha256(fs.readFileSync(file)) === hash;
      } catch {
        return false;
      }
    };
    if (!intact()) {
      keep(file, () => bytes);
      if (!intact()) throw new Error(`cannot write the keyring library to ${folder}`);
    }
    const module = { exports: {} };
    process.dlopen(module, file);
    return module.exports;
  }

  return { read: (key) => sea.getAsset(key, 'utf8'), load, keyring };
};

/** Writes `file` atomically (0600, its folder 0700); best effort. */
function keep(file, bytes) {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, bytes(), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    // a read-only or full cache folder: the next run compiles again (or the caller says so)
  }
}
