import { describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { createMemoryStore } from '../../../src/auth/stores/memory.js';

describe('bo auth token', () => {
  it('prints the stored token on stdout and nothing else', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token: 'aaa.bbb.ccc' } });
    expect(await runBo(['auth', 'token'], { env: t.env, credentials: store })).toEqual({ code: 0, stdout: 'aaa.bbb.ccc\n', stderr: '' });
  });

  it('prints BO_TOKEN when set (the environment wins)', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token: 'stored' } });
    const r = await runBo(['auth', 'token'], { env: { ...t.env, BO_TOKEN: 'from-env' }, credentials: store });
    expect(r.stdout).toBe('from-env\n');
  });

  it('exit 4 when not signed in, and when the profile holds an API key (no secret printed)', async () => {
    const t = tempConfig();
    const none = await runBo(['auth', 'token'], { env: t.env, credentials: createMemoryStore() });
    expect(none).toMatchObject({ code: 4, stdout: '' });
    expect(none.stderr).toContain('error: not signed in (profile "default")');
    const store = createMemoryStore({ default: { kind: 'apiKey', key: 'k', secret: 'topsecret' } });
    const key = await runBo(['auth', 'token'], { env: t.env, credentials: store });
    expect(key).toMatchObject({ code: 4, stdout: '' });
    expect(key.stderr).toContain('profile "default" uses an API key, not a token');
    expect(key.stderr).not.toContain('topsecret');
  });
});
