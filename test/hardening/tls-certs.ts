// Certificates made with `openssl` for the TLS suite, in a temp folder: a test CA, and
// leaves it signed for this host, for this host but expired or not valid yet, and for another host; plus
// a self-signed leaf. Made fresh on each run, so they protect nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertSet {
  dir: string;
  /** The CA certificate (PEM file): what NODE_EXTRA_CA_CERTS names to trust it. */
  ca: string;
  /** Leaves signed by the CA: { cert, key } file pairs. */
  good: { cert: string; key: string };
  expired: { cert: string; key: string };
  notYetValid: { cert: string; key: string };
  otherHost: { cert: string; key: string };
  /** Self-signed for this host; trusted by nobody. */
  selfSigned: { cert: string; key: string };
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const HERE = 'subjectAltName=DNS:localhost,IP:127.0.0.1';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

export function makeCerts(): CertSet {
  const dir = mkdtempSync(join(tmpdir(), 'bo-tls-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'db', 'index.txt'), '');
  writeFileSync(join(dir, 'db', 'serial'), '01\n');
  // `openssl ca` is the one tool of OpenSSL 3.0 that sets any validity dates (-startdate, -enddate).
  writeFileSync(
    join(dir, 'ca.cnf'),
    ['[ca]', 'default_ca = d', '[d]', 'database = db/index.txt', 'new_certs_dir = db', 'serial = db/serial', 'default_md = sha256',
      'policy = p', 'copy_extensions = copy', 'unique_subject = no', '[p]', 'commonName = supplied', ''].join('\n'),
  );
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=bo test CA', '-days', '2']);
  const leaf = (name: string, cn: string, san: string, dates: string[]) => {
    openssl(dir, ['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`, '-addext', san]);
    openssl(dir, ['ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.pem', '-keyfile', 'ca.key', '-in', `${name}.csr`, '-out', `${name}.pem`, '-notext', ...dates]);
    return { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
  };
  const good = leaf('good', 'localhost', HERE, ['-days', '2']);
  const expired = leaf('expired', 'localhost', HERE, ['-startdate', '20200101000000Z', '-enddate', '20200102000000Z']);
  const notYetValid = leaf('future', 'localhost', HERE, ['-startdate', '20990101000000Z', '-enddate', '20991231000000Z']);
  const otherHost = leaf('other', 'api.other.example', 'subjectAltName=DNS:api.other.example', ['-days', '2']);
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'self.key', '-out', 'self.pem', '-subj', '/CN=localhost', '-addext', HERE, '-days', '2']);
  return { dir, ca: join(dir, 'ca.pem'), good, expired, notYetValid, otherHost, selfSigned: { cert: join(dir, 'self.pem'), key: join(dir, 'self.key') } };
}
