// Every command verb, in help order. One line per verb file.
import type { CommandDefinition } from '../command.js';
import login from './login.js';
import logout from './logout.js';
import authStatus from './auth/status.js';
import authToken from './auth/token.js';
import authSetKey from './auth/set-key.js';
import configGet from './config/get.js';
import configSet from './config/set.js';
import configUnset from './config/unset.js';
import configList from './config/list.js';
import profilesList from './profiles/list.js';
import profilesUse from './profiles/use.js';
import profilesRemove from './profiles/remove.js';
import accountsList from './accounts/list.js';
import accountsGet from './accounts/get.js';
import addonsPreview from './addons/preview.js';
import couponsList from './coupons/list.js';
import couponsRedemptions from './coupons/redemptions.js';
import listsList from './lists/list.js';
import broadcastsGet from './broadcasts/get.js';
import accountsExtendTrial from './accounts/extend-trial.js';
import accountsCancel from './accounts/cancel.js';
import api from './api.js';
import addonsExpire from './addons/expire.js';
import dripsDelete from './drips/delete.js';
import articlesUntag from './articles/untag.js';
import dealsUpdate from './deals/update.js';
import subscriptionsRequireUpgrade from './subscriptions/require-upgrade.js';
import listsSubscribe from './lists/subscribe.js';
import membershipsUpdate from './memberships/update.js';
import peopleMagicLink from './people/magic-link.js';
import paymentInfoUpdate from './payment-info/update.js';
import listsCreate from './lists/create.js';
import dripsAddMessage from './drips/add-message.js';
import sandboxServe from './sandbox/serve.js';
import sandboxUsers from './sandbox/users.js';
import sandboxFixtures from './sandbox/fixtures.js';
import sandboxOutbox from './sandbox/outbox.js';
import sandboxReset from './sandbox/reset.js';
import { completionCommand } from './completion.js';
import complete from './complete.js';

export const commands: CommandDefinition<any>[] = [
  login,
  logout,
  authStatus,
  authToken,
  authSetKey,
  configGet,
  configSet,
  configUnset,
  configList,
  profilesList,
  profilesUse,
  profilesRemove,
  accountsList,
  accountsGet,
  addonsPreview,
  couponsList,
  couponsRedemptions,
  listsList,
  broadcastsGet,
  accountsExtendTrial,
  accountsCancel,
  addonsExpire,
  dripsDelete,
  articlesUntag,
  dealsUpdate,
  subscriptionsRequireUpgrade,
  listsCreate,
  listsSubscribe,
  membershipsUpdate,
  peopleMagicLink,
  paymentInfoUpdate,
  dripsAddMessage,
  api,
  sandboxServe,
  sandboxUsers,
  sandboxFixtures,
  sandboxOutbox,
  sandboxReset,
  completionCommand(() => commands),
  complete,
];
