// `--json` error objects on stderr: `code` is the server's error code when it sent one,
// else one of the documented set (ERROR_CODES) — never null, never a Node internal
// name — and `status` the HTTP status when an answer came back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors.js';
import { testEnv } from '../helpers/test-env.js';
import { closedPort, reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let server: FaultServer;
beforeAll(async () => {
  [sb, server] = await Promise.all([startTestSandbox(), startFaultServer()]);
});
afterAll(async () => {
  await Promise.all([sb.close(), server.close()]);
});


/** The one JSON line on stderr. */
function errorObject(stderr: string): { status: number | null; code: string; message: string } {
  const lines = stderr.split('\n').filter((l) => l.startsWith('{'));
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!).error;
}

describe('--json error codes', () => {
  it('a usage error: "usage", no status, exit 2', async () => {
    const r = await runBo(['--json', 'accounts', 'get', 'a/b'], { env: testEnv(sb) });
    expect(r.code).toBe(2);
    expect(errorObject(r.stderr)).toMatchObject({ status: null, code: 'usage' });
  });

  it('an unknown flag under --json: "usage" too', async () => {
    const r = await runBo(['--json', 'accounts', 'list', '--no-such-flag'], { env: testEnv(sb) });
    expect(r.code).toBe(2);
    expect(errorObject(r.stderr)).toMatchObject({ status: null, code: 'usage' });
  });

  it('accounts get of an absent Uid: "not_found", exit 3', async () => {
    const r = await runBo(['--json', 'accounts', 'get', 'acc_does_not_exist'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(errorObject(r.stderr)).toEqual({ status: null, code: 'not_found', message: 'no account with Uid acc_does_not_exist' });
  });

  it("a server's own code passes through, with the status", async () => {
    server.script(reply.json(409, { error: 'list_name_taken', error_description: 'A list with that name exists' }));
    const r = await runBo(['--json', 'api', '/email/lists', '-F', 'Name=x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(r.code).toBe(1);
    expect(errorObject(r.stderr)).toEqual({ status: 409, code: 'list_name_taken', message: '409 Conflict: A list with that name exists' });
  });

  it('a refusal without a server code gets one from the status', async () => {
    server.script(reply.json(404, {}), reply.text(500, 'boom'), reply.json(403, {}));
    const notFound = await runBo(['--json', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(errorObject(notFound.stderr)).toMatchObject({ status: 404, code: 'not_found' });
    const failed = await runBo(['--json', '--max-retries', '0', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(errorObject(failed.stderr)).toMatchObject({ status: 500, code: 'failed' });
    const denied = await runBo(['--json', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(errorObject(denied.stderr)).toMatchObject({ status: 403, code: 'auth' });
  });

  it('a 401: "auth", and the hint says how to sign in again, interactively or for CI', async () => {
    server.script(reply.json(401, {}));
    const r = await runBo(['--json', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(r.code).toBe(4);
    expect(errorObject(r.stderr)).toMatchObject({ status: 401, code: 'auth' });
    // The token came from the environment: the hint says so, and no bo login would help.
    expect(r.stderr).toContain('hint: the credential came from the environment (BO_TOKEN): check or replace it, or unset it to use the stored one.');
  });

  it('a 429 past the retries: "rate_limited"', async () => {
    server.script(reply.json(429, {}, { 'retry-after': '7200' }));
    const r = await runBo(['--json', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(r.code).toBe(5);
    expect(errorObject(r.stderr)).toEqual({ status: 429, code: 'rate_limited', message: '429 Too Many Requests; retry in 2 h' });
  });

  it('connection refused: "network", not a Node name', async () => {
    const port = await closedPort();
    const r = await runBo(['--json', '--max-retries', '0', 'api', '/x'], { env: { ...testEnv(server, { BO_TOKEN: 'tok-json-errors' }), BO_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    const error = errorObject(r.stderr);
    expect(error).toEqual({ status: null, code: 'network', message: `could not connect to http://127.0.0.1:${port}: connection refused` });
    expect(r.stderr).not.toMatch(/ECONNREFUSED/);
  });

  it('an unknown host: "network", not ENOTFOUND', async () => {
    const r = await runBo(['--json', '--max-retries', '0', 'api', '/x'], { env: { ...testEnv(server, { BO_TOKEN: 'tok-json-errors' }), BO_BASE_URL: 'https://no-such-host.invalid' } });
    expect(r.code).toBe(1);
    expect(errorObject(r.stderr)).toMatchObject({ status: null, code: 'network' });
    expect(r.stderr).not.toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it('a timeout: "timeout"', async () => {
    server.script(reply.hang());
    const r = await runBo(['--json', '--timeout', '0.3', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(r.code).toBe(1);
    expect(errorObject(r.stderr)).toMatchObject({ status: null, code: 'timeout' });
  });

  it('an answer that makes no sense: "unexpected", with its status', async () => {
    server.script(reply.malformed(200));
    const r = await runBo(['--json', 'api', '/x'], { env: testEnv(server, { BO_TOKEN: 'tok-json-errors' }) });
    expect(r.code).toBe(1);
    expect(errorObject(r.stderr)).toMatchObject({ status: 200, code: 'unexpected' });
  });

  it('an answer over the cap: "too_large"', async () => {
    server.script(reply.big(2 * 1024 * 1024, false));
    const r = await runBo(['--json', 'api', '/x'], { env: { ...testEnv(server, { BO_TOKEN: 'tok-json-errors' }), BO_MAX_RESPONSE_MB: '1' } });
    expect(r.code).toBe(1);
    expect(errorObject(r.stderr)).toMatchObject({ status: null, code: 'too_large' });
  });

  it('the scripting page of the docs lists every code of the set', async () => {
    const { readFileSync } = await import('node:fs');
    const page = readFileSync(new URL('../../docs/scripting.md', import.meta.url), 'utf8');
    for (const code of ERROR_CODES) expect(page).toContain(`\`${code}\``);
  });
});
