// `bo sandbox users|fixtures|outbox|reset` act on --base-url (BO_BASE_URL), never on a
// profile's base-url. A tenant admin who set the profile's base-url to a sandbox served
// on loopback, and looks for the sign-in code with `bo sandbox outbox --last`, is told on
// stderr how to reach that sandbox instead of only "no email yet" from the embedded one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';

function env() {
  const config = tempConfig();
  return { ...config.env, BO_DATA_DIR: join(config.root, 'data'), LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1' };
}

describe('the sandbox admin commands and a profile base-url', () => {
  it('a loopback base-url in the profile: one line names --base-url with it', async () => {
    const e = env();
    expect((await runBo(['config', 'set', 'base-url', 'https://127.0.0.1:8443'], { env: e })).code).toBe(0);
    const r = await runBo(['sandbox', 'outbox', '--last'], { env: e });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^Using the embedded sandbox \(.*sandbox-state\.json\)\.$/);
    expect(lines[1]).toBe("The profile's base-url is not used here: for the sandbox served at https://127.0.0.1:8443, pass --base-url https://127.0.0.1:8443.");
    expect(r.stderr).toContain('error: the sandbox has not sent any email yet');
  });

  it('a tenant base-url, or none: no such line', async () => {
    const e = env();
    const none = await runBo(['sandbox', 'outbox'], { env: e });
    expect(none.code).toBe(0);
    expect(none.stderr).not.toContain('base-url');
    expect((await runBo(['config', 'set', 'base-url', 'https://acme.example.com'], { env: e })).code).toBe(0);
    const tenant = await runBo(['sandbox', 'outbox'], { env: e });
    expect(tenant.code).toBe(0);
    expect(tenant.stderr).not.toContain('base-url');
  });
});
