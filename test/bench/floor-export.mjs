// The export floor of the bench (run.mjs): every record of FLOOR_URL as JSON lines,
// pages of 100 fetched four at a time with node:http (keep-alive), written in order.
import { Agent, get } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const base = process.env.FLOOR_URL;
const auth = process.env.FLOOR_AUTH;
const page = (offset) =>
  new Promise((resolve, reject) => {
    get(`${base}?limit=100&offset=${offset}&donotlog=1`, { agent, headers: { authorization: auth, accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    }).on('error', reject);
  });

const write = (items) => {
  let out = '';
  for (const item of items) out += `${JSON.stringify(item)}\n`;
  return new Promise((resolve) => (process.stdout.write(out) ? resolve() : process.stdout.once('drain', resolve)));
};

const first = await page(0);
await write(first.items);
const pages = Math.ceil(first.metadata.total / 100);
const inFlight = [];
let next = 1;
while (next < pages || inFlight.length > 0) {
  while (inFlight.length < 4 && next < pages) inFlight.push(page(next++));
  await write((await inFlight.shift()).items);
}
agent.destroy();
