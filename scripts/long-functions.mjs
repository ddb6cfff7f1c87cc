// The functions of src/ longer than 80 lines, found with the TypeScript compiler's API
// (typescript/unstable/sync: it runs the compiler as a helper process). A function is a
// function declaration, a method (constructors and accessors included), an arrow
// function or a function expression; one without a body (an overload's signature) is
// not. Its lines run from its first token (leading comments left out) to its last,
// both counted. A nested function is counted on its own, and its lines count for the
// function around it too: moving code into an inner closure does not shorten the outer.
// A function's name is its declared name, else that of the variable or property it is
// assigned to, else `<anonymous>`, qualified by the classes and functions around it
// (`createHttpClient.answered`); a second one of the same name in a file gets ` #2`.
//
//   node scripts/long-functions.mjs         prints today's list, as test/function-length.test.ts holds it
//
// test/function-length.test.ts is the ratchet: the list may only shrink.

import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind } from 'typescript/unstable/ast';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LIMIT = 80;

const WITH_BODY = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.ArrowFunction,
  SyntaxKind.FunctionExpression,
]);
const NAMING = new Set([SyntaxKind.VariableDeclaration, SyntaxKind.PropertyAssignment, SyntaxKind.PropertyDeclaration]);

/** A declaration's name as written: an identifier's text, or the source of a computed or quoted one. */
function nameText(name, file) {
  if (!name) return undefined;
  return name.kind === SyntaxKind.Identifier || name.kind === SyntaxKind.PrivateIdentifier ? name.text : name.getText(file);
}

function ownName(node, file) {
  if (node.kind === SyntaxKind.Constructor) return 'constructor';
  const own = nameText(node.name, file);
  if (own) return own;
  const parent = node.parent;
  if (parent && NAMING.has(parent.kind) && parent.initializer === node) return nameText(parent.name, file) ?? '<anonymous>';
  return '<anonymous>';
}

/** Every function of one source file with its qualified name and length in lines. */
export function functionsOf(file) {
  const found = [];
  const seen = new Map();
  const lineOf = (pos) => file.getLineAndCharacterOfPosition(pos).line;
  const visit = (node, outer) => {
    let path = outer;
    if (node.kind === SyntaxKind.ClassDeclaration || node.kind === SyntaxKind.ClassExpression) {
      path = [...outer, nameText(node.name, file) ?? '<class>'];
    } else if (WITH_BODY.has(node.kind) && node.body) {
      path = [...outer, ownName(node, file)];
      let name = path.join('.');
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      if (count > 1) name = `${name} #${count}`;
      found.push({ name, lines: lineOf(node.end) - lineOf(node.getStart(file)) + 1 });
    }
    node.forEachChild((child) => visit(child, path));
  };
  visit(file, []);
  return found;
}

/**
 * The functions over `limit` lines in src/ (or the folder `under` names), as
 * [file, name, lines] sorted by file, then line count.
 */
export function longFunctions(limit = LIMIT, under = 'src/') {
  const api = new API({ cwd: ROOT });
  try {
    const project = api.updateSnapshot({ openProject: 'tsconfig.json' }).getProjects()[0];
    const program = project.program;
    const out = [];
    for (const name of program.getSourceFileNames()) {
      const path = relative(ROOT, name).split(sep).join('/');
      if (!path.startsWith(under) || path.endsWith('.d.ts')) continue;
      for (const fn of functionsOf(program.getSourceFile(name))) if (fn.lines > limit) out.push([path, fn.name, fn.lines]);
    }
    return out.sort((a, b) => a[0].localeCompare(b[0]) || b[2] - a[2] || a[1].localeCompare(b[1]));
  } finally {
    api.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quote = (text) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  for (const [file, name, lines] of longFunctions()) console.log(`  [${quote(file)}, ${quote(name)}, ${lines}],`);
}
