// The floor client of the bench (run.mjs): the least a Node program must do for
// `bo accounts list --json`: one loopback GET with node:http, JSON.parse, and a
// pretty-printed JSON.stringify of the records to stdout. FLOOR_URL, FLOOR_AUTH.
import { get } from 'node:http';

get(process.env.FLOOR_URL, { headers: { authorization: process.env.FLOOR_AUTH, accept: 'application/json' } }, (res) => {
  const chunks = [];
  res.on('data', (d) => chunks.push(d));
  res.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    process.stdout.write(`${JSON.stringify(body.items, null, 2)}\n`);
  });
});
