// An export copies a record's bytes to stdout when they are already what `bo` prints
// for it (src/api/canonical-json.ts); every other record is parsed and written as
// before. Either way the output is the same: served here in forms JSON.stringify would
// write otherwise, a record at a time, `--all --jsonl` and `--all --json` print what
// JSON.stringify of the parsed record prints, with hidden characters escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

// As a server may write them, and as `bo` prints them.
const records: [served: string, printed: string][] = [
  ['{"Uid":"acc_1","Name":"Zoë 😀"}', '{"Uid":"acc_1","Name":"Zoë 😀"}'],
  ['{"Uid": "acc_2", "Amount": 1.5}', '{"Uid":"acc_2","Amount":1.5}'],
  ['{"Uid":"acc_2b","Amount":1.50,"Count":1.0}', '{"Uid":"acc_2b","Amount":1.5,"Count":1}'],
  ['{"Uid":"acc_3","Name":"\\u0041"}', '{"Uid":"acc_3","Name":"A"}'],
  ['{"Uid":"acc_3b","Name":"a\\/b"}', '{"Uid":"acc_3b","Name":"a/b"}'],
  ['{"Uid":"acc_3c","Big":12345678901234567890}', '{"Uid":"acc_3c","Big":12345678901234567000}'],
  ['{"Uid":"acc_3d","Small":0.0000001}', '{"Uid":"acc_3d","Small":1e-7}'],
  ['{"Uid":"acc_3e","Large":1E3}', '{"Uid":"acc_3e","Large":1000}'],
  ['{"Uid":"acc_4","Name":"x","Name":"y"}', '{"Uid":"acc_4","Name":"y"}'],
  ['{"Uid":"acc_5","Name":"\u202eevil\u0085\u007f","Esc":"\\u001b[31m"}', '{"Uid":"acc_5","Name":"\\u202eevil\\u0085\\u007f","Esc":"\\u001b[31m"}'],
  ['{"Uid":"acc_5b","Esc":"\\u001B[31m"}', '{"Uid":"acc_5b","Esc":"\\u001b[31m"}'],
  ['{"Uid":"acc_6","2":"two","1":"one"}', '{"1":"one","2":"two","Uid":"acc_6"}'],
  ['{"Uid":"acc_7","Tags":["a",{"b":null}],"N":-0}', '{"Uid":"acc_7","Tags":["a",{"b":null}],"N":0}'],
  ['{"Uid":"acc_8","Amount":-12.25,"Live":true,"Note":"tab\\tline\\n"}', '{"Uid":"acc_8","Amount":-12.25,"Live":true,"Note":"tab\\tline\\n"}'],
];
const page = `{"metadata":{"limit":100,"offset":0,"total":${records.length}},"items":[\n  ${records.map(([served]) => served).join(',\n  ')}\n]}`;
const serve = () => server.script(reply.text(200, page, { 'content-type': 'application/json; charset=utf-8' }));

describe('records of an export, copied or written again', () => {
  it('--all --jsonl prints each as JSON.stringify writes its value, hidden characters escaped', async () => {
    serve();
    const r = await runBo(['accounts', 'list', '--all', '--jsonl'], { env: testEnv(server) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(records.map(([, printed]) => `${printed}\n`).join(''));
  });

  it('--all --json prints the same records as one array', async () => {
    serve();
    const r = await runBo(['accounts', 'list', '--all', '--json'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`[\n${records.map(([, printed]) => printed).join(',\n')}\n]\n`);
  });
});
