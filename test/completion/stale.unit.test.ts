// The committed completions/* must be what `bo completion <shell>` prints now: a new
// command or flag without a rebuild fails here.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';

const files = { bash: 'completions/bo.bash', zsh: 'completions/_bo', fish: 'completions/bo.fish' } as const;

describe('completions/ is up to date', () => {
  it.each(Object.entries(files))('%s: %s', async (shell, file) => {
    const r = await runBo(['completion', shell]);
    expect(r.code).toBe(0);
    const committed = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    expect(committed, `${file} is stale: run \`npm run build\` and commit completions/`).toBe(r.stdout);
  });
});
