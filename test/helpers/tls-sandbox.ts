// `bo sandbox serve --memory --port 0 --tls-cert <f> --tls-key <f>` as a real process,
// for the TLS tests: its first stdout line is the https:// base URL, its banner on
// stderr the API key. Started without NODE_EXTRA_CA_CERTS; stopped by the caller's stop().
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { binPath } from './run-bin.js';

export interface TlsSandbox {
  url: string;
  key: string;
  secret: string;
  child: ChildProcess;
  stop(): void;
}

export async function serveTls(pair: { cert: string; key: string }): Promise<TlsSandbox> {
  const child = spawn(process.execPath, [binPath, 'sandbox', 'serve', '--memory', '--port', '0', '--tls-cert', pair.cert, '--tls-key', pair.key], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 20 s: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  for (let i = 0; i < 200 && !/BO_API_SECRET=/.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
  const m = /BO_API_KEY=(\S+) BO_API_SECRET=(\S+)/.exec(stderr);
  if (!m) throw new Error(`no API key in the banner: ${stderr}`);
  return { url, key: m[1]!, secret: m[2]!, child, stop: () => child.kill('SIGTERM') };
}
