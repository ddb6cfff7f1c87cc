// Placeholder until the terminal prompter lands.
import type { Io } from '../context.js';
import type { Prompter } from './prompter-types.js';

export async function createPrompter(_io: Io, _signal: AbortSignal): Promise<Prompter> {
  throw new Error('prompter: not built yet');
}
