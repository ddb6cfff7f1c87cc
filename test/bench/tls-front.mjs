// A TLS front for the bench: nginx on loopback, with a certificate of a test CA made
// here (openssl), proxying to a served sandbox. `gh api` and `bo` reach the sandbox
// through it the same way: one PEM file of that CA (SSL_CERT_FILE for gh, which reads
// no other roots then; NODE_EXTRA_CA_CERTS for bo until a profile's CA file exists).
// gh speaks to a host as to GitHub Enterprise: `https://<host>/api/v3/<path>`, with
// `Authorization: token …`; the front maps /api/v3/ to the sandbox's /api/v1/ and puts
// the sandbox key in place of gh's token, so both send the same request to the same
// server over the same TLS.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

/** Why the front cannot run here (a tool missing), or undefined. */
export function frontMissing() {
  for (const [tool, pkg] of [['nginx', 'nginx'], ['openssl', 'openssl']]) {
    if (spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`], { stdio: 'ignore' }).status !== 0) return `${tool} is not installed (Debian package ${pkg})`;
  }
  return undefined;
}

/** A free loopback port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * Starts nginx in `dir` in front of `upstream` (http://127.0.0.1:PORT) with `auth` (the
 * sandbox's Authorization value). Answers { url, host, ca, close }.
 */
export async function startTlsFront({ dir, upstream, auth }) {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const ssl = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=bo bench test CA']);
  ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'front.key', '-out', 'front.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  ssl(['x509', '-req', '-in', 'front.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'front.pem', '-days', '2', '-extfile', 'ext.cnf']);
  const port = await freePort();
  const t = join(dir, 'tmp');
  writeFileSync(join(dir, 'nginx.conf'), `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${t}/body; proxy_temp_path ${t}/proxy; fastcgi_temp_path ${t}/fcgi;
  uwsgi_temp_path ${t}/uwsgi; scgi_temp_path ${t}/scgi;
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${dir}/front.pem;
    ssl_certificate_key ${dir}/front.key;
    location /api/v3/ {
      proxy_set_header Authorization "${auth}";
      proxy_pass ${upstream}/api/v1/;
    }
    location / { proxy_pass ${upstream}; }
  }
}
`);
  const nginx = spawn(spawnSync('sh', ['-c', 'command -v nginx || echo /usr/sbin/nginx'], { encoding: 'utf8' }).stdout.trim(), ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  // Ready once it accepts a connection.
  for (let i = 0; ; i++) {
    const ok = await new Promise((resolve) => {
      const s = connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    if (i > 100 || nginx.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `https://localhost:${port}`, host: `localhost:${port}`, ca: join(dir, 'ca.pem'), close: () => (nginx.kill('SIGTERM'), exited) };
}
