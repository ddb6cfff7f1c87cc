// `bo logout`: forgets the profile's stored credentials, in the keychain and in the
// file. The API has no revoke, so it says that an issued token stays valid until it
// expires; credentials in the environment are the shell's, and are left alone.
import { defineCommand } from '../command.js';
import type { Context } from '../context.js';
import { AuthError, type BoError } from '../errors.js';
import { boCommand } from '../hints.js';
import { updateConfig } from '../config/config.js';
import { forgetCredentials, forgetSandboxCredential, type ForgetResult } from '../auth/credentials.js';
import { envCredentialNames } from '../auth/stores/env.js';
import { say } from '../output/print.js';

export default defineCommand({
  path: ['logout'],
  summary: "Forget the profile's stored credentials",
  description:
    'Remove the current profile\'s token or API key from the keychain and from the --insecure-storage file ' +
    '(with --sandbox: its sign-in to the embedded sandbox, whose API key is then used again). ' +
    'A token already issued stays valid until it expires: the API cannot revoke it.',
  examples: ['bo logout', 'bo -p staging logout'],
  async run(ctx) {
    const inEffect = await ctx.profile();
    const profile = inEffect.name;
    const backend = inEffect.settings['credential-store'] ?? 'keychain';
    // Under --sandbox: the sandbox sign-in only, from the file --sandbox keeps it in.
    const removed = ctx.globals.sandbox
      ? reportForgotten(ctx, profile, 'file', [await forgetSandboxCredential(ctx, profile)])
      : reportForgotten(ctx, profile, backend, await forgetCredentials(ctx, inEffect));

    // The profile records nothing stored now (so later runs need not ask the keychain),
    // and the next login goes back to the keychain unless --insecure-storage is given again.
    if (!ctx.globals.sandbox && inEffect.settings['credential-store'] !== undefined) {
      updateConfig(ctx.io.env, (fresh) => {
        if (fresh.profiles[profile]) delete fresh.profiles[profile]['credential-store'];
      });
    }
    if (removed) {
      say(ctx, `Signed out of profile "${profile}".`);
      say(ctx, 'A token already issued stays valid until it expires: the API has no way to revoke it.');
    } else if (ctx.globals.sandbox) {
      say(ctx, `No sandbox sign-in for profile "${profile}": the sandbox's own API key is in use.`);
    } else {
      say(ctx, `No stored credentials for profile "${profile}".`);
    }
    const names = envCredentialNames(ctx.io.env);
    if (names.length) say(ctx, `${names.join(' and ')} in the environment ${names.length > 1 ? 'are' : 'is'} not affected.`);
  },
});

/**
 * Tells what was removed where. A backend that could not be reached is fatal when it
 * is the one the profile uses (its credential may still be there); otherwise a warning.
 * Returns whether anything was removed.
 */
export function reportForgotten(ctx: Context, profile: string, backend: 'keychain' | 'file', results: ForgetResult[]): boolean {
  let removed = false;
  for (const r of results) {
    if (r.removed) {
      removed = true;
      ctx.io.stderr.write(`Removed the credential of profile "${profile}" from ${r.location}.\n`);
    }
  }
  for (const r of results) {
    if (!r.error) continue;
    const primary = backend === 'file' ? r.backend === 'file' : r.backend !== 'file';
    if (primary && (r.error as BoError).code === 'keychain_unavailable') {
      // The store's own hint is about storing elsewhere (--insecure-storage, which logout
      // does not take); here the credential is still in the keychain.
      throw new AuthError(`cannot remove the credential of profile "${profile}": ${r.error.message}`, {
        code: 'keychain_unavailable',
        hint: `it is still stored there; run \`${boCommand({ sandbox: ctx.globals.sandbox, profile }, 'logout')}\` again once the keychain can be reached`,
      });
    }
    if (primary) throw r.error;
    ctx.io.stderr.write(`warning: ${r.location} could not be checked: ${r.error.message}\n`);
  }
  return removed;
}
