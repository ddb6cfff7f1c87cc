// The sandbox's RS256 signing key (D5) is made when the first token is signed and kept
// in the state file, so a state that never signs (a `bo --sandbox accounts list`) never
// pays for an RSA key, and a token signed by one process verifies in the next.
import { createPublicKey, createVerify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedState } from '../../src/sandbox/seed.js';
import { Store } from '../../src/sandbox/store.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { runBo } from '../helpers/run-bo.js';

const dir = mkdtempSync(join(tmpdir(), 'bo-signing-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const storedKey = (file: string) => JSON.parse(readFileSync(file, 'utf8')).auth.signingKey;
const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;

describe('sandbox signing key', () => {
  it('a bo --sandbox read command leaves the fresh state without a key', async () => {
    const data = join(dir, 'embedded');
    const r = await runBo(['--sandbox', '--json', 'accounts', 'list', '--limit', '1'], { env: { BO_DATA_DIR: data } });
    expect(r.stderr).toBe('showing 1 of 60; pass --all for every record\n');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(storedKey(join(data, 'sandbox-state.json'))).toBeNull();
  });

  it('the first token makes the key, the state file keeps it, and the next process verifies with it', async () => {
    const file = join(dir, 'state.json');
    const open = () => Store.file({ file, params: { seed: 1, accounts: 20 }, seeder: seedState });
    const first = await startTestSandbox({ store: await open() });
    let token: string;
    try {
      expect((await first.raw('GET', '/.well-known/jwks.json')).body).toEqual({ keys: [] });
      expect(storedKey(file)).toBeNull();
      const plain = first.fixtures.users.find((u) => u.kind === 'plain')!;
      const res = await first.api('POST', '/tokens', { authorization: null, body: { username: plain.username, password: plain.password } });
      expect(res.status).toBe(200);
      token = res.body.access_token;
      expect(storedKey(file)).toMatchObject({ kid: kidOf(token), privateKeyPem: expect.stringContaining('PRIVATE KEY') });
    } finally {
      await first.close();
    }

    const second = await startTestSandbox({ store: await open() });
    try {
      const jwks = (await second.raw('GET', '/.well-known/jwks.json')).body;
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([kidOf(token)]);
      const [h, c, s] = token.split('.') as [string, string, string];
      const key = createPublicKey({ key: jwks.keys[0], format: 'jwk' });
      expect(createVerify('RSA-SHA256').update(`${h}.${c}`).verify(key, s, 'base64url')).toBe(true);
    } finally {
      await second.close();
    }
  });
});
