// The trust a ca-file adds (src/api/ca-file.ts), in process: Node's own roots stay in
// front of the file's certificates, NODE_EXTRA_CA_CERTS included where Node cannot list
// its default store itself; a file without a certificate, or with a broken one, is
// exit 2 naming the setting. The built binary is tested in test/e2e/ca-file.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultCertificates, loadCaFile, pemCertificates } from '../../src/api/ca-file.js';
import { UsageError } from '../../src/errors.js';
import { TEST_CERT } from './tls-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'bo-ca-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cert = TEST_CERT.slice(0, TEST_CERT.indexOf('-----END CERTIFICATE-----') + '-----END CERTIFICATE-----'.length);

describe('the certificates a ca-file adds', () => {
  it("keeps Node's default roots and adds the file's", () => {
    const file = join(dir, 'one.pem');
    writeFileSync(file, `comment before\n${cert}\n`);
    const loaded = loadCaFile(file, 'ca-file', {});
    expect(loaded.count).toBe(1);
    expect(loaded.ca.slice(0, tls.rootCertificates.length)).toEqual(defaultCertificates({}).slice(0, tls.rootCertificates.length));
    expect(loaded.ca.at(-1)).toBe(cert);
  });

  it('without tls.getCACertificates, the NODE_EXTRA_CA_CERTS file is added to the bundled roots', () => {
    if (typeof (tls as { getCACertificates?: unknown }).getCACertificates === 'function') {
      // Node lists its default store itself (22.15 and later): NODE_EXTRA_CA_CERTS is Node's to read.
      expect(defaultCertificates({ NODE_EXTRA_CA_CERTS: '/nonexistent' }).length).toBeGreaterThan(0);
      return;
    }
    const extra = join(dir, 'extra.pem');
    writeFileSync(extra, cert);
    expect(defaultCertificates({ NODE_EXTRA_CA_CERTS: extra })).toEqual([...tls.rootCertificates, cert]);
    expect(defaultCertificates({ NODE_EXTRA_CA_CERTS: join(dir, 'missing.pem') })).toEqual([...tls.rootCertificates]);
  });

  it('a file with no certificate, or a broken one, is a usage error naming the setting', () => {
    expect(() => pemCertificates('just text', 'BO_CA_FILE', '/x.pem')).toThrow(
      new UsageError('BO_CA_FILE /x.pem holds no PEM certificate (-----BEGIN CERTIFICATE-----)'),
    );
    const broken = `${cert}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`;
    expect(() => pemCertificates(broken, 'ca-file', '/y.pem')).toThrow(new UsageError('ca-file /y.pem: certificate 2 of 2 is not a valid certificate'));
  });
});
