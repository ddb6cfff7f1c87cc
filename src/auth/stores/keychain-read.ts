// The read of a keychain item (what every command with a stored credential does):
// in-process from the Secret Service where it can be (src/auth/stores/secret-service.ts,
// no helper process), else — other platforms, or any case that reader defers — by the
// keyring library in its helper process (src/auth/stores/keychain-child.ts). One time
// limit bounds the whole read, both parts together. The in-process read takes about a
// millisecond where the helper takes a Node start (docs/performance-notes.md).

import { startKeychainChild, timeoutResult, type ChildResult, type KeychainCall } from './keychain-child.js';
import type { Env } from '../../env.js';
import { readSecretService, sessionBusPath, type SecretServiceRead } from './secret-service.js';

/**
 * Starts reading `account` of `service`. `helper` starts the library's helper, called
 * only if it is needed.
 */
export function startKeychainGet(
  env: Env,
  item: { service: string; account: string },
  timeoutMs: number,
  helper: () => KeychainCall = () => startKeychainChild(env, { op: 'get', ...item }, timeoutMs),
): KeychainCall {
  const busPath = sessionBusPath(env);
  if (!busPath) return helper();

  let read: SecretServiceRead | undefined = readSecretService(busPath, item.service, item.account);
  let child: KeychainCall | undefined;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  const result = new Promise<ChildResult>((resolve) => {
    const finish = (r: ChildResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    timer = setTimeout(() => {
      read?.close();
      child?.stop();
      finish(timeoutResult(timeoutMs));
    }, timeoutMs);
    read!.answer.then((answer) => {
      read = undefined;
      if (done) return;
      if (answer !== 'defer') return finish({ ok: true, value: answer.value });
      child = helper();
      child.result.then(finish);
    });
  });
  return {
    result,
    stop: () => {
      if (done) return;
      done = true; // stopped before the answer: no helper either
      clearTimeout(timer);
      read?.close();
      child?.stop();
    },
  };
}
