// The callers that run verbs for others — `bo mcp` (src/mcp), plans (src/plan, `bo plan
// apply`) and `bo batch resume` (src/commands/batch) — build an invocation and run it
// through invoke(): none of them builds command-line text, builds a commander program,
// or reads a verb's printed output back. Read from the source.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src/mcp', 'src/plan', 'src/commands/batch', 'src/commands/plan'];

function files(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
}

/** The code of a file, its comments left out. */
const code = (file: string) => readFileSync(join(repo, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('callers that run verbs for others', () => {
  const sources = FOLDERS.flatMap(files).map((file) => ({ file, text: code(file) }));

  it('are found', () => {
    expect(sources.map((s) => s.file)).toEqual(expect.arrayContaining(['src/mcp/run.ts', 'src/mcp/call.ts', 'src/commands/batch/resume.ts', 'src/commands/plan/apply.ts', 'src/plan/store.ts']));
  });

  it('write no flag as text (a literal such as "--yes" or `--page=${n}`) but in declarations', () => {
    const flagText = /['"`]--[a-z][a-z-]*(=|['"`])/;
    // A declaration (`option.switch('--yes', …)`) is data; clients.ts and install.ts write another program's command line (an MCP client's set-up).
    const declarations = /option\.\w+\(\s*(['"`])[^'"`]*\1/g;
    const found = sources.filter((s) => s.file !== 'src/mcp/clients.ts' && s.file !== 'src/mcp/install.ts').map((s) => ({ ...s, text: s.text.replace(declarations, '') }));
    expect(found.filter((s) => flagText.test(s.text)).map((s) => `${s.file}: ${flagText.exec(s.text)![0]}`)).toEqual([]);
  });

  it('build no commander program and run no command line', () => {
    const building = /buildProgram|parseAsync|from ['"]commander['"]|runArgv|commandLine\(|withFlag/;
    expect(sources.filter((s) => building.test(s.text)).map((s) => `${s.file}: ${building.exec(s.text)![0]}`)).toEqual([]);
  });

  it('parse no printed output: JSON is read only from files and frames the module owns', () => {
    // store.ts reads a plan file it wrote; sdk.ts reads the MCP client's JSON-RPC frames; cursor.ts a cursor it wrote;
    // jsonc.ts an MCP client's configuration file.
    const owned = new Set(['src/plan/store.ts', 'src/mcp/sdk.ts', 'src/mcp/cursor.ts', 'src/mcp/jsonc.ts']);
    // A value made JSON and read back (a copy as JSON would carry it) is no printed output.
    const parsing = /JSON\.parse\((?!JSON\.stringify)|parseJson\(/;
    expect(sources.filter((s) => !owned.has(s.file) && parsing.test(s.text)).map((s) => s.file)).toEqual([]);
  });

  it('run a verb through invoke() or replay()', () => {
    expect(code('src/mcp/run.ts')).toMatch(/\binvoke\(/);
    expect(code('src/commands/plan/apply.ts')).toMatch(/\breplay\(/);
    expect(code('src/commands/batch/resume.ts')).toMatch(/\breplay\(/);
  });
});
