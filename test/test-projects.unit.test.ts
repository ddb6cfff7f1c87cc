// The test projects are chosen by a file's folder or name (vitest.config.ts), not by a
// hand list; this checks that each file's name says what its imports do:
// - every test file falls in exactly one project;
// - a unit file (*.unit.test.ts) reaches, through the test files and helpers it imports,
//   no server and no other process: no node:child_process, node:http(s), node:net, no
//   served sandbox (src/sandbox/server.ts); and one that runs in threads calls no
//   process.chdir or process.umask (a worker thread cannot);
// - an integration or *.e2e.test.ts file does reach one of those, else it is a unit test
//   that lost its suffix, and would run in the slow projects only.
// What src/ imports is not followed: `bo` in process may hold an HTTP client it never opens.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config, { E2E, UNIT, UNIT_FORKS } from '../vitest.config.js';

const repo = fileURLToPath(new URL('..', import.meta.url));

const testFiles = readdirSync(join(repo, 'test'), { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
  .map((e) => relative(repo, join(e.parentPath, e.name)))
  .sort();

/** A glob of vitest.config.ts as a regular expression: `**\/` any folders, `*` within one name. */
function globRegExp(glob: string): RegExp {
  const body = glob
    .split('**/')
    .map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^${body}$`);
}
const matches = (globs: readonly string[] | undefined, file: string) => (globs ?? []).some((g) => globRegExp(g).test(file));

interface Project { name: string; include: string[]; exclude: string[]; pool?: string; maxWorkers?: number; sequence?: { groupOrder?: number } }
const projects = ((config as { test: { projects: { test: Project }[] } }).test.projects).map((p) => p.test);

function projectsOf(file: string): string[] {
  return projects.filter((p) => matches(p.include, file) && !matches(p.exclude, file)).map((p) => p.name);
}

const SPECIFIER = /(?:^|[^\w.$])(?:import|export)\s+(?!type\s)(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|(?:^|[^\w.$])import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** What a file imports: repository paths for relative specifiers, else the bare name. */
function importsOf(file: string): string[] {
  const code = readFileSync(join(repo, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    if (!spec.startsWith('.')) return spec;
    const path = relative(repo, resolve(join(repo, dirname(file)), spec));
    return path.endsWith('.js') && !existsSync(join(repo, path)) ? path.replace(/\.js$/, '.ts') : path;
  });
}

/** What starts a server or another process (TypeScript's compiler API runs the compiler as one). */
const SERVER_OR_PROCESS = ['node:child_process', 'child_process', 'node:http', 'node:https', 'node:net', 'node:http2', 'node:dgram', 'src/sandbox/server.ts', 'typescript/unstable/sync'];

/** The chain from a test file to a server or a process, through test/ and scripts/ files; none: []. */
function chainToServerOrProcess(file: string): string[] {
  const seen = new Set<string>([file]);
  const walk = (from: string, path: string[]): string[] => {
    for (const to of importsOf(from)) {
      if (SERVER_OR_PROCESS.includes(to)) return [...path, to];
      if ((to.startsWith('test/') || to.startsWith('scripts/')) && !seen.has(to) && existsSync(join(repo, to))) {
        seen.add(to);
        const found = walk(to, [...path, to]);
        if (found.length > 0) return found;
      }
    }
    return [];
  };
  return walk(file, [file]);
}

describe('the test projects', () => {
  it('are chosen by name and folder, and unit runs in threads', () => {
    expect(testFiles.length).toBeGreaterThan(200);
    expect(projects.map((p) => p.name)).toEqual(['unit', 'unit-forks', 'integration', 'e2e']);
    expect(projects.find((p) => p.name === 'unit')?.pool).toBe('threads');
    expect(UNIT).toEqual(['test/**/*.unit.test.ts']);
    expect(projectsOf('test/e2e/x.test.ts')).toEqual(['e2e']);
    expect(projectsOf('test/hardening/a/x.test.ts')).toEqual(['e2e']);
    expect(projectsOf('test/api/x.e2e.test.ts')).toEqual(['e2e']);
    expect(projectsOf('test/x.unit.test.ts')).toEqual(['unit']);
    expect(projectsOf('test/a/x.forks.unit.test.ts')).toEqual(['unit-forks']);
    expect(projectsOf('test/a/x.test.ts')).toEqual(['integration']);
    expect(E2E).toContain('test/**/*.e2e.test.ts');
    expect(UNIT_FORKS).toEqual(['test/**/*.forks.unit.test.ts']);
  });

  it('run together (`npm test`, or --project twice): a project with its own worker count has a group of its own', () => {
    // vitest refuses to start a run of projects that share a group but not a worker count.
    const clash = projects.flatMap((a) =>
      projects.filter((b) => a.name < b.name && (a.sequence?.groupOrder ?? 0) === (b.sequence?.groupOrder ?? 0) && a.maxWorkers !== b.maxWorkers).map((b) => `${a.name} and ${b.name}`),
    );
    expect(clash).toEqual([]);
  });

  it('hold every test file exactly once', () => {
    const wrong = testFiles.map((file) => ({ file, in: projectsOf(file) })).filter((f) => f.in.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('unit files start no server and no process (else name them *.test.ts, or *.e2e.test.ts)', () => {
    const reaching = testFiles
      .filter((file) => projectsOf(file)[0]?.startsWith('unit'))
      .map((file) => chainToServerOrProcess(file).join(' → '))
      .filter((chain) => chain !== '');
    expect(reaching).toEqual([]);
  });

  it('unit files in threads call neither process.chdir nor process.umask (else name them *.forks.unit.test.ts)', () => {
    const calling = testFiles
      .filter((file) => projectsOf(file)[0] === 'unit')
      .filter((file) => /process\.(chdir|umask)\(\s*[^)\s]/.test(readFileSync(join(repo, file), 'utf8')));
    expect(calling).toEqual([]);
  });

  it('integration and *.e2e.test.ts files reach a server or a process (else they are unit tests: name them *.unit.test.ts)', () => {
    const pure = testFiles
      .filter((file) => projectsOf(file)[0] === 'integration' || file.endsWith('.e2e.test.ts'))
      .filter((file) => chainToServerOrProcess(file).length === 0);
    expect(pure).toEqual([]);
  });

  it('finds a server or a process through a helper', () => {
    expect(chainToServerOrProcess('test/sandbox/tokens-http.test.ts')).toEqual([
      'test/sandbox/tokens-http.test.ts', 'test/helpers/two-factor-http.ts', 'test/helpers/sandbox.ts', 'src/sandbox/server.ts',
    ]);
    expect(chainToServerOrProcess('test/input/date.unit.test.ts')).toEqual([]);
  });
});
