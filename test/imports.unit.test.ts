// Every package src/ names is declared in package.json and reached through its public
// entry points only: a bare specifier's subpath must be one the package's `exports` map
// lists, and a package without `exports` may be named only by its bare name. A private
// file (qrcode-terminal/vendor/QRCode/index.js, as bo once imported) works only until the
// package moves it, and an undeclared package works only while something else installs it.

import { readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));

/**
 * Imports allowed although they break a rule above, each with its reason. Keep it short:
 * an entry here is a dependency a release of the package may break.
 */
const ALLOWED: Record<string, string> = {
  // A development dependency on purpose: scripts/build.mjs bundles it into
  // dist/lazy/jq.cjs and copies jq.wasm beside it, so npm never installs it for users.
  'jq-wasm': 'bundled at build time (dist/lazy/jq.cjs), not installed',
  'jq-wasm/jq.wasm': 'bundled at build time (dist/lazy/jq.wasm), not installed',
};

/** Every module specifier a file names: import/export … from, import(), require(), require.resolve(). */
export function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const patterns = [
    /(?:^|[^\w.$])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/gm,
    /(?:^|[^\w.$])import\(\s*['"]([^'"]+)['"]\s*\)/gm,
    /\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]\s*\)/gm,
    /\bcreateRequire\([^)]*\)\.resolve\(\s*['"]([^'"]+)['"]\s*\)/gm,
  ];
  return patterns.flatMap((p) => [...code.matchAll(p)].map((m) => m[1]!));
}

/** A bare specifier's package name and subpath ('.' for the package itself). */
export function splitSpecifier(spec: string): { name: string; subpath: string } {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(n).join('/');
  return { name: parts.slice(0, n).join('/'), subpath: rest ? `./${rest}` : '.' };
}

/** Whether `subpath` is one a package's `exports` field names (an exact key or a `*` pattern). */
export function exported(exports: unknown, subpath: string): boolean {
  // A string, an array or an object of conditions only: the package's own entry, nothing else.
  const isMap = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'));
  if (!isMap) return subpath === '.';
  return Object.entries(exports as Record<string, unknown>).some(([key, target]) => {
    if (target === null) return false;
    if (!key.includes('*')) return key === subpath;
    const [before, after] = key.split('*') as [string, string];
    return subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= before.length + after.length;
  });
}

interface Manifest {
  dependencies?: Record<string, string>;
}

/** What is wrong with each bare specifier of `files` (path → text), given package.json and each package's manifest. */
export function importProblems(
  files: Record<string, string>,
  manifest: Manifest,
  packageOf: (name: string) => { exports?: unknown } | undefined,
  allowed: Record<string, string> = ALLOWED,
): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const spec of specifiersOf(text)) {
      if (spec.startsWith('.') || spec.startsWith('node:') || isBuiltin(spec) || spec in allowed) continue;
      const { name, subpath } = splitSpecifier(spec);
      if (!manifest.dependencies?.[name]) {
        problems.push(`${file}: '${spec}' names ${name}, which package.json does not declare in dependencies`);
        continue;
      }
      const pkg = packageOf(name);
      if (!pkg) problems.push(`${file}: '${spec}': ${name} is not installed`);
      else if (pkg.exports === undefined ? subpath !== '.' : !exported(pkg.exports, subpath))
        problems.push(`${file}: '${spec}' reaches into a file ${name} does not export${pkg.exports === undefined ? ' (it has no exports map)' : ''}`);
    }
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [path] : [];
  });
}

const installedPackage = (name: string): { exports?: unknown } | undefined => {
  try {
    return JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
};

describe('the packages src/ imports', () => {
  it('are declared in package.json dependencies and reached through their exports only', () => {
    const files = Object.fromEntries(sourceFiles('src').map((file) => [file, readFileSync(join(repo, file), 'utf8')]));
    const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as Manifest & { devDependencies?: Record<string, string> };
    expect(importProblems(files, manifest, installedPackage)).toEqual([]);
    // Each allowed exception is still needed, and names a package package.json knows.
    const named = new Set(Object.values(files).flatMap(specifiersOf));
    expect(Object.keys(ALLOWED).filter((spec) => !named.has(spec))).toEqual([]);
    expect(Object.keys(ALLOWED).filter((spec) => !manifest.devDependencies?.[splitSpecifier(spec).name] && !manifest.dependencies?.[splitSpecifier(spec).name])).toEqual([]);
  });

  it('reads every kind of import', () => {
    const text = [
      "import a from 'a';",
      "import type { B } from '@s/b/types';",
      "export { c } from 'c/sub.js';",
      "import 'd';",
      "const e = await import('e');",
      "const f = require('f');",
      "createRequire(import.meta.url).resolve('g/file.wasm');",
      "// import no from 'comment';",
      "const s = 'from x';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual(['a', '@s/b/types', 'c/sub.js', 'd', 'e', 'f', 'g/file.wasm']);
  });

  it('catches a private file, a package without exports named with a subpath, and an undeclared package', () => {
    const manifest = { dependencies: { 'qrcode-terminal': '^0.12.0', mapped: '1', sugar: '1', conditions: '1' } };
    const packages: Record<string, { exports?: unknown }> = {
      'qrcode-terminal': {},
      mapped: { exports: { '.': './index.js', './public.js': './lib/public.js', './features/*.js': './lib/f/*.js', './features/private/*': null } },
      sugar: { exports: './index.js' },
      conditions: { exports: { import: './index.mjs', require: './index.cjs' } },
    };
    const problems = importProblems(
      {
        'src/auth/qr.ts': "import QRCode from 'qrcode-terminal/vendor/QRCode/index.js';",
        'src/a.ts': [
          "import q from 'qrcode-terminal';",
          "import m from 'mapped';",
          "import p from 'mapped/public.js';",
          "import f from 'mapped/features/x.js';",
          "import l from 'mapped/lib/public.js';",
          "import x from 'mapped/features/private/x';",
          "import s from 'sugar/index.js';",
          "import c from 'conditions';",
          "import u from 'undeclared';",
          "import { readFileSync } from 'node:fs';",
          "import fs from 'fs';",
        ].join('\n'),
      },
      manifest,
      (name) => packages[name],
      {},
    );
    expect(problems).toEqual([
      "src/auth/qr.ts: 'qrcode-terminal/vendor/QRCode/index.js' reaches into a file qrcode-terminal does not export (it has no exports map)",
      "src/a.ts: 'mapped/lib/public.js' reaches into a file mapped does not export",
      "src/a.ts: 'mapped/features/private/x' reaches into a file mapped does not export",
      "src/a.ts: 'sugar/index.js' reaches into a file sugar does not export",
      "src/a.ts: 'undeclared' names undeclared, which package.json does not declare in dependencies",
    ]);
  });
});
