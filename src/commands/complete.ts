// `bo __complete <source>`: profile names or setting keys, one a line, for the
// completion scripts to offer at TAB time. Hidden: it is for the scripts, not for
// people, so it is left out of --help and out of the scripts' own candidates.
// bin/bo.js answers `bo __complete …` itself, from dist/complete.cjs, without loading
// the command tree; this definition serves the same answer when bo runs in-process
// or with global flags before it.

import { defineCommand } from '../command.js';
import { completionValues } from '../completion/dynamic.js';
import { operand } from '../input/declare.js';

export default defineCommand({
  path: ['__complete'],
  hidden: true,
  summary: 'Values for the shell completion scripts: profiles or settings',
  examples: ['bo __complete profiles', 'bo __complete settings'],
  operands: [operand.text('<source>', 'profiles or settings')],
  run: async (ctx, [source]) => {
    ctx.io.stdout.write(completionValues(source, ctx.io.env).map((v) => `${v}\n`).join(''));
  },
});
