// Every command verb, in help order. One line per verb file.
import type { CommandDefinition } from '../command.js';
import accountsList from './accounts/list.js';
import accountsGet from './accounts/get.js';
import api from './api.js';

export const commands: CommandDefinition<any>[] = [accountsList, accountsGet, api];
