// --csv for a colleague's Excel, on the built binary: --csv-separator (`,` by default, `;`
// or tab) and --bom (a UTF-8 byte order mark, for non-ASCII names), also as the profile
// settings csv-separator and csv-bom (`bo config set` checks them); a value holding the
// separator is quoted, the formula guard stays; the flags without --csv, or a separator
// of another kind, are exit 2 naming the flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => {
  await server.close();
});

const account = (Uid: string, Name: string) => ({ Uid, Name, AccountStage: 2, AccountStageLabel: 'Active', Currency: 'EUR', Created: '2026-01-02T03:04:05Z' });
const page = () =>
  reply.json(200, {
    metadata: { limit: 100, offset: 0, total: 2 },
    items: [account('acc_1', 'Müller; Söhne, GmbH'), account('acc_2', '=SUM(A1)')],
  });

describe('--csv for Excel', () => {
  it('--csv-separator ";" --bom: a byte order mark, then rows cut by ;, a value holding ; quoted, formulas defused', async () => {
    server.fallback(page());
    const r = await runBin(['accounts', 'list', '--csv', '--csv-separator', ';', '--bom'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '\ufeffUid;Name;Stage;Currency;Created\r\n' + 'acc_1;"Müller; Söhne, GmbH";2 Active;EUR;2026-01-02T03:04:05Z\r\n' + "acc_2;'=SUM(A1);2 Active;EUR;2026-01-02T03:04:05Z\r\n",
    );
    const tab = await runBin(['accounts', 'list', '--csv', '--csv-separator', 'tab'], { env: testEnv(server) });
    expect(tab.stdout.split('\r\n')[1]).toBe('acc_1\tMüller; Söhne, GmbH\t2 Active\tEUR\t2026-01-02T03:04:05Z');
    // The default is unchanged: commas, no mark.
    const plain = await runBin(['accounts', 'list', '--csv'], { env: testEnv(server) });
    expect(plain.stdout.startsWith('Uid,Name,')).toBe(true);
    expect(plain.stdout).toContain('acc_1,"Müller; Söhne, GmbH",');
  });

  it('the profile settings csv-separator and csv-bom apply to every --csv; the flags win; config set checks them', async () => {
    server.fallback(page());
    const env = testEnv(server);
    expect((await runBin(['config', 'set', 'csv-separator', ';'], { env })).code).toBe(0);
    expect((await runBin(['config', 'set', 'csv-bom', 'true'], { env })).code).toBe(0);
    const r = await runBin(['accounts', 'list', '--csv'], { env });
    expect(r.stdout.startsWith('\ufeffUid;Name;Stage;')).toBe(true);
    const flags = await runBin(['accounts', 'list', '--csv', '--csv-separator', ','], { env });
    expect(flags.stdout.startsWith('\ufeffUid,Name,Stage,')).toBe(true);
    // A tab is stored and shown as the word.
    expect((await runBin(['config', 'set', 'csv-separator', 'tab'], { env })).code).toBe(0);
    expect((await runBin(['config', 'get', 'csv-separator'], { env })).stdout).toBe('tab\n');
    expect((await runBin(['accounts', 'list', '--csv'], { env })).stdout.startsWith('\ufeffUid\tName\tStage\t')).toBe(true);

    const bad = await runBin(['config', 'set', 'csv-separator', ':'], { env });
    expect([bad.code, bad.stderr]).toEqual([2, 'error: csv-separator must be , or ; or tab, got ":"\n']);
    const badBom = await runBin(['config', 'set', 'csv-bom', 'yes'], { env });
    expect([badBom.code, badBom.stderr]).toEqual([2, 'error: csv-bom must be true or false, got "yes"\n']);
  });

  it('the flags need --csv, and a separator of another kind is refused: exit 2, nothing sent', async () => {
    const before = server.requests.length;
    for (const [args, message] of [
      [['--bom'], 'error: --bom applies with --csv\n'],
      [['--csv-separator', ';'], 'error: --csv-separator applies with --csv\n'],
      [['--csv', '--csv-separator', '|'], 'error: --csv-separator must be , or ; or tab, got "|"\n'],
    ] as const) {
      const r = await runBin(['accounts', 'list', ...args], { env: testEnv(server) });
      expect([r.code, r.stderr, r.stdout]).toEqual([2, message, '']);
    }
    expect(server.requests.length).toBe(before);
  });
});
