// A separate process writing to a state file, for the concurrency and crash tests:
//   node store-writer.mjs <file> <tag> <count> [padBytes]
// Each transaction adds one EmailList `<tag>-<i>`; `padBytes` makes each write big, so
// a kill is likely to land mid-write. Prints "ready" after the first commit.
import { seedState } from '../../../src/sandbox/seed.js';
import { Store } from '../../../src/sandbox/store.js';

const [file, tag, countText, padText] = process.argv.slice(2);
const count = Number(countText);
const pad = 'x'.repeat(Number(padText ?? 0));
const store = await Store.file({ file: file!, params: { seed: 1, accounts: 20 }, seeder: seedState });
for (let i = 0; i < count; i++) {
  await store.transact((tx) => {
    tx.put('EmailList', { Uid: `${tag}-${i}`, _objectType: 'EmailList', Name: `${tag} ${i}`, Description: pad });
  });
  if (i === 0) process.stdout.write('ready\n');
}
process.stdout.write('done\n');
