import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { readFileText as read } from '../../input/read-text.js';
import { defaultStatePath, makeDataFolder } from '../../sandbox/state-path.js';
import { createSecureContext } from 'node:tls';
import { option } from '../../input/declare.js';

/** The most seeded accounts; the fewest is the sandbox's MIN_ACCOUNTS (20), in its own bundle. */
const MAX_ACCOUNTS = 1_000_000;

/** The PEM certificate chain and key for https, checked to be a pair before listening. */
async function readTls(certFile: string | undefined, keyFile: string | undefined): Promise<{ cert: string; key: string } | undefined> {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new UsageError('--tls-cert and --tls-key must be given together');
  const tls = { cert: await read('--tls-cert', certFile), key: await read('--tls-key', keyFile) };
  try {
    createSecureContext(tls);
  } catch (err) {
    const code = String((err as NodeJS.ErrnoException).code ?? '');
    const why = /MISMATCH/.test(code) ? 'the key does not belong to the certificate' : 'they are not a PEM certificate and its private key';
    throw new UsageError(`--tls-cert and --tls-key: ${why}`);
  }
  return tls;
}

/** The sandbox's fixtures hold passwords and the API secret: loopback only by default. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export default defineCommand({
  path: ['sandbox', 'serve'],
  summary: 'Run the API emulator in the foreground (Ctrl-C stops it)',
  description:
    'Serve the sandbox API on loopback: print its base URL on stdout, then the API key, the demo logins and every email it "sends" (two-factor codes included) on stderr. State is kept in the data folder (shared with `bo --sandbox`) unless --state or --memory is given.',
  examples: [
    { example: 'bo sandbox serve', needs: 'a terminal to stop it: it runs until Ctrl-C' },
    { example: 'bo sandbox serve --memory --port 0', needs: 'a terminal to stop it: it runs until Ctrl-C' },
    { example: 'bo sandbox serve --memory --accounts 100000 --seed 7', needs: 'a terminal to stop it: it runs until Ctrl-C' },
    { example: 'bo sandbox serve --tls-cert cert.pem --tls-key key.pem', needs: 'a certificate and key, and a terminal to stop it: it runs until Ctrl-C' },
  ],
  options: [
    option.integer('--port <n>', 'port to listen on (default 4010; 0 picks a free one)', 0, 65535, { default: 4010, must: 'a whole number from 0 to 65535' }),
    option.text('--host <addr>', 'address to bind (default 127.0.0.1; loopback only, unless --allow-remote)', { default: '127.0.0.1' }),
    option.switch('--allow-remote', 'allow a non-loopback --host (exposes demo passwords and the API secret)'),
    option.text('--state <file>', 'state file (default: sandbox-state.json in the data folder)'),
    option.switch('--memory', 'keep state in memory only'),
    option.integer('--seed <n>', 'seed of the demo data (default 1)', 0, 2 ** 32 - 1, { must: `a whole number from 0 to ${2 ** 32 - 1}` }),
    option.integer('--accounts <n>', 'number of seeded accounts, 20 to 1000000 (default 60)', 20, MAX_ACCOUNTS, { must: `a whole number from 20 to ${MAX_ACCOUNTS}` }),
    option.text('--api-key-scheme <word>', 'the word before key:secret in the API key Authorization header (default bo)', { default: 'bo' }),
    option.text('--tls-cert <file>', 'serve https with this PEM certificate (chain), with --tls-key'),
    option.text('--tls-key <file>', 'the PEM private key of --tls-cert'),
  ] as const,
  async run(ctx, _args, opts) {
    const port = opts.port ?? 4010;
    const host = opts.host ?? '127.0.0.1';
    if (!isLoopback(host) && !opts.allowRemote) {
      throw new UsageError(`--host ${host} is not a loopback address; the sandbox exposes demo passwords and its API secret, so pass --allow-remote to bind it anyway`);
    }
    if (opts.state !== undefined && opts.memory) throw new UsageError('--state and --memory cannot be used together');
    if (opts.state === '') throw new UsageError('--state needs a file path');
    const scheme = opts.apiKeyScheme ?? 'bo';
    if (!/^[A-Za-z][A-Za-z0-9._-]*$/.test(scheme)) throw new UsageError(`--api-key-scheme must be one word, got "${scheme}"`);
    const tls = await readTls(opts.tlsCert, opts.tlsKey);
    // The sandbox is its own bundle (scripts/build.mjs), loaded only here.
    const [{ DEFAULT_ACCOUNTS, DEFAULT_SEED, seedState }, { Store }, { startSandbox }, { printServeBanner, formatEmail }] =
      await Promise.all([
        import('../../sandbox/seed.js'),
        import('../../sandbox/store.js'),
        import('../../sandbox/server.js'),
        import('../../sandbox/serve-banner.js'),
      ]);
    const seed = opts.seed ?? DEFAULT_SEED;
    const accounts = opts.accounts ?? DEFAULT_ACCOUNTS;
    const params = { seed, accounts };
    const file = opts.memory ? undefined : (opts.state ?? defaultStatePath(ctx.io.env));
    if (file !== undefined && opts.state === undefined) makeDataFolder(ctx.io.env);
    // Past this the state no longer fits one JSON string comfortably.
    if (file && accounts > 100_000) throw new UsageError(`--accounts ${accounts} needs --memory (a state file holds at most 100000 accounts)`);
    const store = file
      ? await Store.file({ file, params, seeder: seedState, reseedOnMismatch: opts.seed !== undefined || opts.accounts !== undefined })
      : Store.memory(params, seedState);
    let server;
    try {
      server = await startSandbox({ store, host, port, tls, apiKeyScheme: scheme, onEmail: (mail) => ctx.io.stderr.write(formatEmail(mail)) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new UsageError(`--port ${port} is already in use; pick another or pass --port 0`);
      throw err;
    }
    ctx.io.stdout.write(`${server.url}\n`);
    if (file && accounts > 10_000) {
      ctx.io.stderr.write(`warning: ${accounts} accounts in a state file: every write request rewrites it; --memory is faster for benchmarks\n`);
    }
    await printServeBanner(ctx, server.url, file, store, scheme);
    if (!ctx.signal.aborted) await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    await server.close();
    ctx.io.stderr.write('sandbox stopped\n');
  },
});
