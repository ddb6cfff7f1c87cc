// Pre-renders the top `bo --help` at build time from the command tree (commander stays
// the single source): dist/top-help.json holds the captured parts and the version,
// dist/top-help.js the dependency-free renderer that wraps them to the terminal.
// bin/bo.js uses both to answer `bo --help` and `bo --version` without loading the
// bundle. test/help/top-help.test.ts fails if they no longer match the tree.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function writeTopHelp() {
  const tmp = mkdtempSync(join(tmpdir(), 'bo-top-help-'));
  try {
    const capture = join(tmp, 'capture.mjs');
    await build({
      stdin: {
        contents:
          "import { buildProgram } from './src/program.ts';\n" +
          "import { loadCommands } from './src/commands/index.ts';\n" +
          "import { captureTopHelp } from './src/help/top-help-capture.ts';\n" +
          'export const help = captureTopHelp(buildProgram(await loadCommands(), async () => {}));\n',
        resolveDir: root,
        loader: 'ts',
      },
      outfile: capture,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['@napi-rs/keyring'],
      banner: { js: "import { createRequire as __bo_cr } from 'node:module'; const require = __bo_cr(import.meta.url);" },
      logLevel: 'warning',
    });
    const { help } = await import(pathToFileURL(capture).href);
    writeFileSync(join(root, 'dist/top-help.json'), `${JSON.stringify(help)}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  await build({
    entryPoints: { 'top-help': join(root, 'src/help/top-help-render.ts') },
    outdir: join(root, 'dist'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await writeTopHelp();
