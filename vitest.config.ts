import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three projects, chosen by a test file's folder or name, so a change can be checked at
// the speed of what it touches (`npm run test:unit` …); `npm test` runs all three.
//   unit         *.unit.test.ts: in-process code, no server (the embedded sandbox is in
//                process, no socket) and no other process; in worker threads, the fastest
//                pool (a unit test that needs process.chdir or process.umask, which a
//                thread cannot call, is named *.forks.unit.test.ts and runs in a process)
//   e2e          test/e2e/ and test/hardening/, the folders of what starts processes by
//                nature (bench/, package/, startup/, concurrency/, readme/), and
//                *.e2e.test.ts elsewhere: the built binary, shells, tmux, the keychain
//                daemon, Debian tools, npm
//   integration  every other *.test.ts: `bo` in process against a served sandbox or a
//                fault server over loopback HTTP, or a helper process
// test/test-projects.unit.test.ts checks that each file is where its imports say it belongs.

export const UNIT = ['test/**/*.unit.test.ts'];
export const UNIT_FORKS = ['test/**/*.forks.unit.test.ts'];
export const E2E_FOLDERS = ['e2e', 'hardening', 'bench', 'package', 'startup', 'concurrency', 'readme'];
export const E2E = [...E2E_FOLDERS.map((folder) => `test/${folder}/**/*.test.ts`), 'test/**/*.e2e.test.ts'];

export default defineConfig({
  test: {
    // Bounds against a hang, not measures of speed: generous, so a loaded machine only
    // makes the suite slower. A test that needs longer says so itself.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    experimental: { fsModuleCache: true },
    projects: [
      // Every core: vitest's own default leaves one free for itself (one worker on a
      // 2-core machine), which the unit project, whose files take milliseconds to collect,
      // does not need. A project with its own worker count runs in a group of its own:
      // the unit files first, then the others together, as before.
      { extends: true, test: { name: 'unit', include: UNIT, exclude: [...E2E, ...UNIT_FORKS], pool: 'threads', isolate: false, maxWorkers: availableParallelism(), sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'unit-forks', include: UNIT_FORKS, exclude: E2E, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...E2E], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'e2e', include: E2E, sequence: { groupOrder: 1 } } },
    ],
  },
});
