// Runs a few lines of TypeScript against src/ at build time: esbuild bundles them (with
// the modules they import) into a temporary file, which is imported and then removed.
// scripts/top-help.mjs and scripts/man.mjs read the command tree this way, so what they
// write has no source but the tree itself.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The exports of `contents`, a module whose imports are resolved from the project root. */
export async function importFromSource(contents) {
  const tmp = mkdtempSync(join(tmpdir(), 'bo-build-'));
  try {
    const file = join(tmp, 'capture.mjs');
    await build({
      stdin: { contents, resolveDir: root, loader: 'ts' },
      outfile: file,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['@napi-rs/keyring'],
      banner: { js: "import { createRequire as __bo_cr } from 'node:module'; const require = __bo_cr(import.meta.url);" },
      logLevel: 'warning',
    });
    return await import(pathToFileURL(file).href);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
