// Every command verb, in help order. One line per verb file.
import type { CommandDefinition } from '../command.js';
import login from './login.js';

export const commands: CommandDefinition<any>[] = [login];
