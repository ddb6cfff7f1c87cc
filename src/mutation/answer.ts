// How a single mutation prints the server's answer: a record as key/value pairs (a
// two-column table on a TTY, JSON with --json), anything else as printValue prints it
// (a "string" answer as text, an empty or 204 answer as nothing).

import type { Context } from '../context.js';

export async function printAnswer(ctx: Context, body: unknown): Promise<void> {
  const { printRecord, printValue } = await import('../output/print.js');
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return printRecord(ctx, body);
  return printValue(ctx, body);
}
