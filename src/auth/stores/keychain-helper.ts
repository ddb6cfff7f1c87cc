// The keychain helper (why a process: src/auth/stores/keychain.ts): a hidden mode of
// `bo` itself, `bo __keychain`, which bin/bo.js starts here before anything else
// loads. It runs one keyring library call, read as JSON from stdin, and writes the
// answer (a ChildResult) as JSON to stdout. The same under Node and in the single
// executable, where bin/bo.js hands over the library's native module from the folder
// the executable writes its files to, checked by its hash (bin/sea.cjs).

import type { ChildResult } from './keychain-child.js';

interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(value: string): void;
  deleteCredential(): boolean;
}
type KeyringModule = { Entry: new (service: string, account: string, options: object) => KeyringEntry };

/** Reads the request from `input`, answers on `output`; `load` gives the library. */
export function runKeychainHelper(load: () => KeyringModule, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): void {
  let text = '';
  input.setEncoding('utf8');
  input.on('data', (d: string) => (text += d));
  input.on('end', () => output.write(JSON.stringify(answer(load, text))));
}

function answer(load: () => KeyringModule, text: string): ChildResult {
  let Entry: KeyringModule['Entry'];
  try {
    ({ Entry } = load());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return { failed: 'module', detail: 'the @napi-rs/keyring module is not installed' };
    return { failed: 'module', detail: `the keyring library cannot be loaded: ${(err as Error).message}` };
  }
  try {
    // A parse error would quote the input, and the input may hold the secret.
    let req: { op: string; service: string; account: string; value?: string };
    try {
      req = JSON.parse(text);
    } catch {
      throw new Error('malformed request from bo');
    }
    const entry = new Entry(req.service, req.account, { linux: { store: 'secret-service' } });
    if (req.op === 'get') return { ok: true, value: entry.getPassword() };
    if (req.op === 'set') return { ok: true, value: (entry.setPassword(String(req.value)), null) };
    return { ok: true, value: entry.deleteCredential() };
  } catch (err) {
    return { ok: false, message: String((err as Error | undefined)?.message ?? err) };
  }
}
