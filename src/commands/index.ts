// Every command verb, in help order. One line per verb file.
import type { CommandDefinition } from '../command.js';
import accountsList from './accounts/list.js';
import accountsGet from './accounts/get.js';
import api from './api.js';
import sandboxServe from './sandbox/serve.js';
import sandboxUsers from './sandbox/users.js';
import sandboxFixtures from './sandbox/fixtures.js';
import sandboxOutbox from './sandbox/outbox.js';
import sandboxReset from './sandbox/reset.js';

export const commands: CommandDefinition<any>[] = [
  accountsList,
  accountsGet,
  api,
  sandboxServe,
  sandboxUsers,
  sandboxFixtures,
  sandboxOutbox,
  sandboxReset,
];
