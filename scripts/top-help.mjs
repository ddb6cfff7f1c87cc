// Pre-renders the top `bo --help` at build time from the command tree (commander stays
// the single source): dist/top-help.json holds the captured parts and the version,
// dist/top-help.cjs the dependency-free renderer that wraps them to the terminal (CommonJS,
// which bin/bo.js requires, from dist/ or the single executable's folder of its files).
// bin/bo.js uses both to answer `bo --help` and `bo --version` without loading the
// bundle. test/help/top-help.e2e.test.ts fails if they no longer match the tree.
// writeTopHelp() returns esbuild's metafile of the renderer (scripts/build.mjs records it).
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importFromSource, root } from './from-source.mjs';

export async function writeTopHelp(out = join(root, 'dist')) {
  const { help } = await importFromSource(
    "import { buildProgram } from './src/program.ts';\n" +
      "import { loadCommands } from './src/commands/index.ts';\n" +
      "import { captureTopHelp } from './src/help/top-help-capture.ts';\n" +
      'export const help = captureTopHelp(buildProgram(await loadCommands(), async () => {}));\n',
  );
  writeFileSync(join(out, 'top-help.json'), `${JSON.stringify(help)}\n`);
  const { metafile } = await build({
    metafile: true,
    entryPoints: { 'top-help': join(root, 'src/help/top-help-render.ts') },
    outdir: out,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return metafile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await writeTopHelp();
