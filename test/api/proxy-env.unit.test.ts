// Which proxy a base URL goes through: the variables curl reads, and every NO_PROXY form
// on host names (proxy.e2e.test.ts runs the same rules end to end on loopback).
import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFor } from '../../src/api/proxy-env.js';

const PROXY = 'http://proxy.corp.example:3128';

describe('NO_PROXY', () => {
  it.each([
    ['https://api.acme.com', 'api.acme.com', true],
    ['https://api.acme.com', 'acme.com', true],
    ['https://acme.com', 'acme.com', true],
    ['https://api.acme.com', '.acme.com', true],
    ['https://acme.com', '.acme.com', true],
    ['https://api.acme.com', '*.acme.com', true],
    ['https://notacme.com', 'acme.com', false],
    ['https://notacme.com', '.acme.com', false],
    ['https://acme.com.evil.example', 'acme.com', false],
    ['https://API.Acme.COM', 'acme.com', true],
    ['https://api.acme.com', 'ACME.COM', true],
    ['https://api.acme.com.', 'acme.com', true],
    ['https://api.acme.com', 'acme.com:443', true],
    ['https://api.acme.com:8443', 'acme.com:443', false],
    ['https://api.acme.com:8443', 'acme.com:8443', true],
    ['https://api.acme.com', 'other.example,acme.com', true],
    ['https://api.acme.com', ' other.example ,  .acme.com , ', true],
    ['https://api.acme.com', 'other.example another.example', false],
    ['https://api.acme.com', '*', true],
    ['https://api.acme.com', 'other.example, *', true],
    ['https://api.acme.com', '', false],
    ['https://api.acme.com', ',,', false],
    ['http://[::1]:8080', '::1', true],
    ['http://[::1]:8080', '[::1]:8080', true],
    ['http://[::1]:8080', '[::1]:9090', false],
    ['https://10.1.2.3', '10.0.0.0/8', true],
    ['https://11.1.2.3', '10.0.0.0/8', false],
    ['https://192.168.4.5', '192.168.4.0/24', true],
    ['http://127.0.0.1:4010', 'localhost', false],
  ])('%s with NO_PROXY=%j: bypassed %s', (target, noProxy, bypassed) => {
    expect(bypassesProxy(new URL(target), noProxy)).toBe(bypassed);
    expect(proxyFor(new URL(target), { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY, NO_PROXY: noProxy })?.shown).toBe(
      bypassed ? undefined : PROXY,
    );
  });
});

describe('the proxy variables', () => {
  const https = new URL('https://api.acme.com');
  const http = new URL('http://127.0.0.1:4010');
  const shownFor = (url: URL, env: Record<string, string>) => {
    const choice = proxyFor(url, env);
    return choice && `${choice.variable} ${choice.shown}`;
  };

  it('https uses https_proxy over HTTPS_PROXY, and never HTTP_PROXY', () => {
    expect(shownFor(https, { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2' })).toBe('https_proxy http://a:1');
    expect(shownFor(https, { HTTPS_PROXY: 'http://b:2' })).toBe('HTTPS_PROXY http://b:2');
    expect(shownFor(https, { https_proxy: '', HTTPS_PROXY: 'http://b:2' })).toBe('HTTPS_PROXY http://b:2');
    expect(shownFor(https, { HTTP_PROXY: 'http://c:3', http_proxy: 'http://c:3' })).toBeUndefined();
  });

  it('http uses http_proxy over HTTP_PROXY, and never HTTPS_PROXY', () => {
    expect(shownFor(http, { http_proxy: 'http://a:1', HTTP_PROXY: 'http://b:2' })).toBe('http_proxy http://a:1');
    expect(shownFor(http, { HTTP_PROXY: 'http://b:2' })).toBe('HTTP_PROXY http://b:2');
    expect(shownFor(http, { HTTPS_PROXY: 'http://c:3' })).toBeUndefined();
  });

  it('no_proxy wins over NO_PROXY', () => {
    expect(shownFor(https, { HTTPS_PROXY: PROXY, no_proxy: 'other.example', NO_PROXY: '*' })).toBe(`HTTPS_PROXY ${PROXY}`);
    expect(shownFor(https, { HTTPS_PROXY: PROXY, no_proxy: 'acme.com', NO_PROXY: 'other.example' })).toBeUndefined();
  });

  it('no environment, or none of the variables: no proxy', () => {
    expect(proxyFor(https, undefined)).toBeUndefined();
    expect(proxyFor(https, { PATH: '/bin', HTTPS_PROXY: '  ' })).toBeUndefined();
  });

  it('a bare host:port is an http:// proxy; user and password stay out of what is shown', () => {
    expect(shownFor(https, { HTTPS_PROXY: 'proxy.corp.example:3128' })).toBe(`HTTPS_PROXY ${PROXY}`);
    const choice = proxyFor(https, { HTTPS_PROXY: 'http://ann:p%40ss@proxy.corp.example:3128/' })!;
    expect(choice.shown).toBe(PROXY);
    expect(choice.url.username).toBe('ann');
    expect(choice.url.password).toBe('p%40ss');
  });

  it.each([
    ['socks5://u:pw-1@proxy:1080', 'error HTTPS_PROXY: socks5://proxy:1080 is not supported; bo uses http:// and https:// proxies'],
    ['http://u:pw-1@proxy:3128/some/path', 'error HTTPS_PROXY: the proxy URL http://proxy:3128 must not have a path, query or fragment'],
    ['http://u:pw-1@pro xy:3128', 'error HTTPS_PROXY is not a proxy URL'],
  ])('%s is a usage error (exit 2) naming the variable, not the password', (value, message) => {
    let thrown: any;
    try {
      proxyFor(https, { HTTPS_PROXY: value });
    } catch (err) {
      thrown = err;
    }
    expect(`error ${thrown?.message}`).toBe(message);
    expect(thrown.exitCode).toBe(2);
    expect(`${thrown.message} ${thrown.hint}`).not.toContain('pw-1');
  });
});
