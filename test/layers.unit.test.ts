// The layering of ARCHITECTURE principle 12, read from the source: every `import … from`,
// `export … from`, `import '…'` and `import('…')` (types included) of every file in src/.
// src/api/ imports only src/api/, the bottom modules (src/errors.ts, src/env.ts: they
// import nothing of src/), src/files/ and Node; no file
// imports itself back through others. The composition root (src/connection.ts) is where
// config, credentials and the sandbox meet the HTTP core.

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
/** Every layer may import these; they import nothing of src/. */
const BOTTOM = ['src/errors.ts', 'src/env.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const SPECIFIER = /(?:^|[^\w.$])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|(?:^|[^\w.$])import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** What a file imports: repository paths of src/ files, or the bare name (node:…, commander). */
export function importsOf(file: string, text = readFileSync(join(repo, file), 'utf8')): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    if (!spec.startsWith('.')) return spec;
    return relative(repo, resolve(join(repo, dirname(file)), spec)).replace(/\.js$/, '.ts');
  });
}

const files = sourceFiles('src');
const graph = new Map(files.map((file) => [file, importsOf(file).filter((to) => to.startsWith('src/'))]));

/** Cycles as paths a → … → a, each found once. */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of graph.get(file) ?? []) {
      if (state.get(to) === 'open') found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

describe('the imports of src/', () => {
  it('reads every kind of import', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "import './d.js';",
      "const e = await import('./e.js');",
      "let f: import('./f.js').F;",
      "import {\n  g,\n  h,\n} from 'node:fs';",
      "// import { no } from './comment.js';",
    ].join('\n');
    expect(importsOf('src/api/x.ts', text)).toEqual(['src/api/a.ts', 'src/b.ts', 'src/api/c.ts', 'src/api/d.ts', 'src/api/e.ts', 'src/api/f.ts', 'node:fs']);
  });

  it('the bottom modules import nothing of src/', () => {
    expect(BOTTOM.flatMap((file) => importsOf(file).filter((to) => to.startsWith('src/')))).toEqual([]);
  });

  it('src/api/ imports only src/api/, the bottom modules, src/files/ and Node', () => {
    const upward = files
      .filter((file) => file.startsWith('src/api/'))
      .flatMap((file) => importsOf(file).map((to) => `${file} → ${to}`))
      .filter((edge) => {
        const to = edge.split(' → ')[1]!;
        return !(to.startsWith('src/api/') || to.startsWith('src/files/') || BOTTOM.includes(to) || to.startsWith('node:'));
      });
    expect(upward).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles().map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('reaches the sandbox only with import() from outside it: a static import would put the sandbox into dist/bo.cjs', () => {
    const lazySandbox = lazyGroupModules().filter((spec) => spec.startsWith('src/sandbox/'));
    expect(lazySandbox).toContain('src/sandbox/embedded.ts');
    /** What a file loads with a static import, itself included, through every file it reaches. */
    const staticallyReached = (from: string): Set<string> => {
      const seen = new Set<string>([from]);
      const visit = (file: string) => {
        const dynamic = dynamicImportsOf(file);
        for (const to of graph.get(file) ?? []) if (!dynamic.includes(to) && !seen.has(to)) (seen.add(to), visit(to));
      };
      visit(from);
      return seen;
    };
    const pulled = files
      .filter((file) => !file.startsWith('src/sandbox/'))
      .flatMap((file) => [...staticallyReached(file)].filter((to) => lazySandbox.includes(to)).map((to) => `${file} → ${to}`));
    expect(pulled).toEqual([]);
  });
});

/**
 * Modules of the main bundle loaded with import() where they are first used, and why: in
 * the bundle, a module imported statically is compiled and run as the bundle loads, for
 * every command. Measured with all of them static (Node 24, compile cache on, alternating
 * spawns): `bo config list` and `bo auth status` ~3-6 ms slower, for code they never run.
 */
const LOADED_ON_FIRST_USE: Record<string, string> = {
  'src/connection.ts': 'the HTTP client and its transports, proxy and TLS: ctx.api(), for commands that send a request',
  'src/auth/credentials.ts': 'the credential stores: ctx.credentials(), for the commands that read or store one',
  'src/auth/prompter.ts': 'the prompts: ctx.prompter(), for a question asked on a terminal',
  'src/output/jq.ts': 'the --jq filter, for runs that give one',
};

/**
 * What scripts/build.mjs keeps out of dist/bo.cjs (its `lazy` groups: the sandbox,
 * inquirer's prompts): the only modules a command file may still import with import().
 */
function lazyGroupModules(): string[] {
  const build = readFileSync(join(repo, 'scripts/build.mjs'), 'utf8');
  const block = /const lazy = \{([\s\S]*?)\n\};/.exec(build)?.[1] ?? '';
  return [...block.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

/** The modules a file loads with import() (or names in an inline import('…').Type). */
export function dynamicImportsOf(file: string, text = readFileSync(join(repo, file), 'utf8')): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return importsOf(file, [...code.matchAll(/(?:^|[^\w.$])import\(\s*['"][^'"]+['"]\s*\)/gm)].map((m) => m[0].trim()).join('\n'));
}

describe('the MCP SDK (bo mcp)', () => {
  // scripts/build.mjs keeps src/mcp/sdk.ts (with the SDK and zod) in dist/lazy/mcp.cjs:
  // a static import of it anywhere would put the SDK on every command's start-up path.
  it('is imported only by src/mcp/sdk.ts, which imports nothing of src/ and is loaded only with import()', () => {
    expect(lazyGroupModules()).toContain('src/mcp/sdk.ts');
    const sdkUsers = files.filter((file) => importsOf(file).some((to) => to.startsWith('@modelcontextprotocol/')));
    expect(sdkUsers).toEqual(['src/mcp/sdk.ts']);
    expect(importsOf('src/mcp/sdk.ts').filter((to) => to.startsWith('src/'))).toEqual([]);
    // Type-only imports and import() calls left out: what is left loads at start.
    const staticUsers = files.filter((file) => {
      const text = readFileSync(join(repo, file), 'utf8').replace(/^import type .*$/gm, '').replace(/import\(\s*['"][^'"]+['"]\s*\)/g, '');
      return importsOf(file, text).includes('src/mcp/sdk.ts');
    });
    expect(staticUsers).toEqual([]);
  });
});

describe('command files', () => {
  it('finds import() and inline import types, not static imports', () => {
    const text = [
      "import { a } from '../a.js';",
      "const { b } = await import('../b.js');",
      "const [c] = await Promise.all([import('./c.js')]);",
      "let d: import('../d.js').D;",
      "const e = await import('node:tls');",
      "// const no = await import('./comment.js');",
    ].join('\n');
    expect(dynamicImportsOf('src/commands/x.ts', text)).toEqual(['src/b.ts', 'src/commands/c.ts', 'src/d.ts', 'node:tls']);
    expect(lazyGroupModules()).toEqual(expect.arrayContaining(['src/auth/prompts.ts', 'src/sandbox/server.ts']));
  });

  // A module reads top-down: what it uses is imported at its top. Loading verbs lazily is
  // the registry's job (src/commands/index.ts); only the groups scripts/build.mjs keeps
  // out of the main bundle, and the few modules of LOADED_ON_FIRST_USE, are still
  // loaded where they are used.
  it('and every other module of src/ import project modules statically, except the lazy ones', () => {
    const lazy = [...lazyGroupModules(), ...Object.keys(LOADED_ON_FIRST_USE)];
    const dynamic = files
      .filter((file) => file !== 'src/commands/index.ts')
      .flatMap((file) => dynamicImportsOf(file).map((to) => `${file} → ${to}`))
      .filter((edge) => {
        const to = edge.split(' → ')[1]!;
        return to.startsWith('src/') && !lazy.includes(to);
      });
    expect(dynamic).toEqual([]);
    // Each of them is still loaded lazily somewhere, or it has no place in the list.
    const loadedLazily = new Set(files.flatMap((file) => dynamicImportsOf(file)));
    expect(Object.keys(LOADED_ON_FIRST_USE).filter((m) => !loadedLazily.has(m))).toEqual([]);
  });

  it('are all loaded through the registry', () => {
    const registry = importsOf('src/commands/index.ts');
    const verbFiles = files.filter((file) => file.startsWith('src/commands/') && /\bdefineCommand\(/.test(readFileSync(join(repo, file), 'utf8')));
    expect(verbFiles.filter((file) => !registry.includes(file))).toEqual([]);
  });
});
