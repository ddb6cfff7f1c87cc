// Every command verb, in help order. One line per verb file.
import type { CommandDefinition } from '../command.js';
import completion from './completion.js';

export const commands: CommandDefinition<any>[] = [completion];
