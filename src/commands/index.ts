// The registry: every command verb, in help order, and where its definition is. A verb
// file is loaded only when dispatch, help or completion needs it (src/main.ts loads the
// verb argv names, else its group, else all of them): in dist/bo.cjs each import() below
// is a lazily initialised module (scripts/build.mjs), so a verb file imports what it
// uses at its top and costs nothing until it is named.
import type { CommandDefinition } from '../command.js';

type Definition = CommandDefinition<any>;
type Loader = () => Promise<{ default: Definition } | Definition>;

/** Each verb's path, as its definition names it (checked when it loads), and its file. */
const verbs: ReadonlyArray<readonly [path: string, load: Loader]> = [
  ['login', () => import('./login.js')],
  ['logout', () => import('./logout.js')],
  ['auth status', () => import('./auth/status.js')],
  ['auth token', () => import('./auth/token.js')],
  ['auth set-key', () => import('./auth/set-key.js')],
  ['doctor', () => import('./doctor.js')],
  ['config get', () => import('./config/get.js')],
  ['config set', () => import('./config/set.js')],
  ['config unset', () => import('./config/unset.js')],
  ['config list', () => import('./config/list.js')],
  ['profiles list', () => import('./profiles/list.js')],
  ['profiles use', () => import('./profiles/use.js')],
  ['profiles remove', () => import('./profiles/remove.js')],
  ['accounts list', () => import('./accounts/list.js')],
  ['accounts get', () => import('./accounts/get.js')],
  ['addons list', () => import('./addons/list.js')],
  ['addons preview', () => import('./addons/preview.js')],
  ['coupons list', () => import('./coupons/list.js')],
  ['coupons redemptions', () => import('./coupons/redemptions.js')],
  ['lists list', () => import('./lists/list.js')],
  ['broadcasts get', () => import('./broadcasts/get.js')],
  ['accounts extend-trial', () => import('./accounts/extend-trial.js')],
  ['accounts cancel', () => import('./accounts/cancel.js')],
  ['addons expire', () => import('./addons/expire.js')],
  ['drips delete', () => import('./drips/delete.js')],
  ['articles untag', () => import('./articles/untag.js')],
  ['deals list', () => import('./deals/list.js')],
  ['deals update', () => import('./deals/update.js')],
  ['subscriptions list', () => import('./subscriptions/list.js')],
  ['subscriptions require-upgrade', () => import('./subscriptions/require-upgrade.js')],
  ['lists create', () => import('./lists/create.js')],
  ['lists subscribe', () => import('./lists/subscribe.js')],
  ['memberships update', () => import('./memberships/update.js')],
  ['people magic-link', () => import('./people/magic-link.js')],
  ['payment-info update', () => import('./payment-info/update.js')],
  ['drips add-message', () => import('./drips/add-message.js')],
  ['api', () => import('./api.js')],
  ['mcp', () => import('./mcp.js')],
  ['mcp install', () => import('./mcp/install.js')],
  ['mcp status', () => import('./mcp/status.js')],
  ['plan list', () => import('./plan/list.js')],
  ['plan show', () => import('./plan/show.js')],
  ['plan discard', () => import('./plan/discard.js')],
  ['plan apply', () => import('./plan/apply.js')],
  ['plan watch', () => import('./plan/watch.js')],
  ['history list', () => import('./history/list.js')],
  ['history show', () => import('./history/show.js')],
  ['history prune', () => import('./history/prune.js')],
  ['batch resume', () => import('./batch/resume.js')],
  ['sandbox serve', () => import('./sandbox/serve.js')],
  ['sandbox users', () => import('./sandbox/users.js')],
  ['sandbox fixtures', () => import('./sandbox/fixtures.js')],
  ['sandbox outbox', () => import('./sandbox/outbox.js')],
  ['sandbox reset', () => import('./sandbox/reset.js')],
  ['completion', () => import('./completion.js')],
  ['__complete', () => import('./complete.js')],
];

/** The path of every verb, in help order, without loading any. */
export const verbPaths: readonly string[][] = verbs.map(([path]) => path.split(' '));

/** The definitions of the verbs whose path `wanted` accepts (all by default), in help order. */
export async function loadCommands(wanted: (path: readonly string[]) => boolean = () => true): Promise<Definition[]> {
  const chosen = verbs.filter(([path]) => wanted(path.split(' ')));
  return Promise.all(
    chosen.map(async ([path, load]) => {
      const loaded = await load();
      const def = 'default' in loaded ? loaded.default : loaded;
      if (def.path.join(' ') !== path) throw new Error(`src/commands/index.ts lists "${path}" for the definition of "${def.path.join(' ')}"`);
      return def;
    }),
  );
}
