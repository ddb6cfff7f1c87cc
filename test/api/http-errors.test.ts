// What a refusal or a strange answer looks like to the user: one error carrying status,
// code and the best message found in any body shape (D6), the exit code by status.
import { describe, expect, it } from 'vitest';
import { ApiError, BoError, exitCodeOf } from '../../src/errors.js';
import { reply, type Step } from '../helpers/fault-server.js';
import { TOKEN, faultServerEach, makeClient, rejectionOf } from './client-fixture.js';

const faults = faultServerEach();

function client(overrides: Parameters<typeof makeClient>[1] = {}) {
  return faults.fixture({ maxRetries: 0, ...overrides }).client;
}

async function failure(step: Step, method: 'GET' | 'POST' = 'GET') {
  faults.server.script(step);
  return rejectionOf(client().request({ method, path: '/crm/accounts', body: method === 'POST' ? {} : undefined }));
}

describe('refusals (D6)', () => {
  it('404 with the sandbox shape: exit 3, status, code, body', async () => {
    const body = { error: 'not_found', error_description: 'No account with Uid x' };
    const err = await failure(reply.json(404, body));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('404 Not Found: No account with Uid x');
    expect(exitCodeOf(err)).toBe(3);
    expect(err.status).toBe(404);
    expect(err.code).toBe('not_found');
    expect(err.body).toEqual(body);
    expect(err.headers['content-type']).toContain('application/json');
  });

  it('400 validation lists the fields', async () => {
    const err = await failure(
      reply.json(400, {
        error: 'validation_failed',
        error_description: 'The list is invalid',
        errors: [{ field: 'Name', message: 'is required' }, { field: 'WelcomeFromEmail', message: 'is not an email' }],
      }),
      'POST',
    );
    expect(err.message).toBe('400 Bad Request: The list is invalid (Name: is required; WelcomeFromEmail: is not an email)');
    expect(err.exitCode).toBe(1);
    expect(err.code).toBe('validation_failed');
  });

  it.each([
    [{ message: 'plain message' }, 'plain message'],
    [{ Message: 'An error has occurred.' }, 'An error has occurred.'],
    [{ ErrorMessage: 'Account is locked' }, 'Account is locked'],
    [{ type: 'about:blank', title: 'Conflict title', status: 409 }, 'Conflict title'],
    [{ error: { code: 'E1', message: 'nested message' } }, 'nested message'],
    [{ errors: { Name: ['too long', 'taken'] } }, 'Name: too long; Name: taken'],
    [{ errors: ['first', 'second'] }, 'first; second'],
    [{ error: 'name_taken' }, 'name_taken'],
    ['a JSON string', 'a JSON string'],
  ])('finds the message in %j', async (body, message) => {
    const err = await failure(reply.json(409, body));
    expect(err.message).toBe(`409 Conflict: ${message}`);
  });

  it('an HTML error page gives its title, never raw HTML', async () => {
    const err = await failure(reply.html(502, 'Bad Gateway &amp; friends'));
    expect(err.message).toBe('502 Bad Gateway: Bad Gateway & friends');
    expect(err.message).not.toMatch(/[<>]/);
    expect(err.exitCode).toBe(1);
  });

  it('a text body gives its first line, cut at 200 characters', async () => {
    const err = await failure(reply.text(500, `\n  upstream exploded  \nstack line 1\nstack line 2`));
    expect(err.message).toBe('500 Internal Server Error: upstream exploded');
    const long = await failure(reply.text(500, 'x'.repeat(500)));
    expect(long.message.length).toBeLessThanOrEqual('500 Internal Server Error: '.length + 200);
  });

  it('no body gives the status text', async () => {
    expect((await failure(reply.empty(500))).message).toBe('500 Internal Server Error');
    expect((await failure(reply.empty(418))).message).toBe("418 I'm a Teapot");
  });

  it('a malformed error body still gives a message', async () => {
    const err = await failure(reply.malformed(500, 'Service crashed {'));
    expect(err.message).toBe('500 Internal Server Error: Service crashed {');
  });

  it('escape sequences from the server are dropped whole and other controls shown escaped', async () => {
    const err = await failure(reply.json(400, { error_description: 'bad\u001b[31m red\u001b[0m\r\nnext\u0007' }));
    expect(err.message).toBe('400 Bad Request: bad red next\\u0007');
  });

  it('401 and 403 exit 4; a 401 says how to sign in again, and with an API key names the scheme setting (D1)', async () => {
    faults.server.script(reply.json(401, { error: 'unauthorized' }), reply.json(401, {}), reply.json(403, {}));
    const apiKey = client({ credential: { kind: 'apiKey', key: 'k', secret: 's' }, apiKeyScheme: 'bo' });
    const withKey = await rejectionOf(apiKey.request({ method: 'GET', path: '/x' }));
    expect(withKey.exitCode).toBe(4);
    expect(withKey.hint).toContain('bo config set api-key-scheme <word>');
    expect(withKey.hint).toContain('"bo"');
    expect(withKey.hint).toContain('`bo login`');
    const withToken = await rejectionOf(client().request({ method: 'GET', path: '/x' }));
    expect(withToken.exitCode).toBe(4);
    expect(withToken.hint).toBe('Sign in again with `bo login`, or for CI set BO_TOKEN, or BO_API_KEY and BO_API_SECRET.');
    expect(withToken.hint).not.toContain('api-key-scheme');
    const forbidden = await rejectionOf(apiKey.request({ method: 'GET', path: '/x' }));
    expect(forbidden.exitCode).toBe(4);
    expect(forbidden.hint).toBeUndefined();
  });
});

describe('answers that make no sense', () => {
  it('a 2xx with a JSON type and a malformed body: "unexpected answer", exit 1, with a snippet', async () => {
    const err = await failure(reply.malformed(200, '{"items": [1, 2,'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('unexpected answer from the server (200 OK): malformed JSON: {"items": [1, 2,');
    expect(err.exitCode).toBe(1);
    expect(err.code).toBe('unexpected');
  });

  it('a 2xx HTML page (a website, not the API) is unexpected too', async () => {
    const err = await failure(reply.html(200, 'Acme Home'));
    expect(err.message).toBe('unexpected answer from the server (200 OK): an HTML page ("Acme Home") instead of JSON');
    expect(err.hint).toContain('--base-url');
  });
});

describe('successful bodies (D17)', () => {
  it('parses JSON, keeps text, and gives undefined for 204 or an empty body', async () => {
    faults.server.script(
      reply.json(201, { Uid: 'a' }),
      reply.json(200, 'done'),
      reply.text(200, 'plain done'),
      reply.empty(204),
      reply.empty(200),
      reply.text(200, '{"sniffed":true}', { 'content-type': 'application/octet-stream' }),
    );
    const c = client();
    const bodies = [];
    for (let i = 0; i < 6; i++) bodies.push((await c.request({ method: 'PUT', path: '/x' })).body);
    expect(bodies).toEqual([{ Uid: 'a' }, 'done', 'plain done', undefined, undefined, { sniffed: true }]);
  });

  it.each(['gzip', 'deflate', 'br'] as const)('asks for compression and decodes %s', async (encoding) => {
    faults.server.script(reply.compressed(encoding, { items: [{ Name: 'Acme' }] }));
    const res = await client().request({ method: 'GET', path: '/x' });
    expect(res.body).toEqual({ items: [{ Name: 'Acme' }] });
    expect(faults.server.requests[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('a body that does not decompress is an unexpected answer (exit 1)', async () => {
    const err = await failure(reply.compressed('gzip', { items: [] }, true));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('unexpected answer from the server (200 OK): a body that could not be decoded (content-encoding gzip)');
    expect(err.exitCode).toBe(1);
  });

  it('returns status and lower-cased headers', async () => {
    faults.server.script(reply.json(200, [], { 'X-Request-Id': 'r-1' }));
    const res = await client().request({ method: 'GET', path: '/x' });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('r-1');
  });
});

describe('secrets stay out of messages', () => {
  it('a server that echoes the credential does not get it into the error message', async () => {
    const err = await failure(reply.json(401, { error_description: `token ${TOKEN} is not valid here` }));
    expect(err.message).toBe('401 Unauthorized: token [redacted] is not valid here');
    const text = await failure(reply.text(500, `boom ${TOKEN}`));
    expect(text.message).not.toContain(TOKEN);
  });

  it('secret-named fields in a malformed or text answer are redacted from the message', async () => {
    const err = await failure(reply.malformed(200, '{"access_token": "jwt-leak-777", "token_type": "Bea'));
    expect(err.message).toContain('"access_token": "[redacted]"');
    expect(err.message).not.toContain('jwt-leak-777');
    const text = await failure(reply.text(400, 'rejected password=hunter2-pw for ann'));
    expect(text.message).toBe('400 Bad Request: rejected password=[redacted] for ann');
  });

  it('a credential that cannot go in a header is a clear error, without the value', async () => {
    const bad = 'tok\nX-Injected: 1';
    const err = await rejectionOf(client({ credential: { kind: 'token', token: bad } }).request({ method: 'GET', path: '/x' }));
    expect(err).toBeInstanceOf(BoError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(/the credential or a header value contains characters that cannot be sent$/);
    expect(err.message).not.toContain('X-Injected');
    expect(faults.server.requests).toHaveLength(0);
  });
});
