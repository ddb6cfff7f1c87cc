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
import api from './api.js';
import sandboxServe from './sandbox/serve.js';
import sandboxUsers from './sandbox/users.js';
import sandboxFixtures from './sandbox/fixtures.js';
import sandboxOutbox from './sandbox/outbox.js';
import sandboxReset from './sandbox/reset.js';
import completion from './completion.js';
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
  api,
  sandboxServe,
  sandboxUsers,
  sandboxFixtures,
  sandboxOutbox,
  sandboxReset,
  completion,
  complete,
];
