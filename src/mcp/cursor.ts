// A list tool's cursor: opaque to the agent, it carries the tool, the query (every
// argument but cursor and limit), the next page's index and the page size the server
// applied. A cursor is honoured only for the same tool and query: from another query it
// is a usage error, never a silent jump into other records.

import { UsageError } from '../errors.js';

export interface CursorState {
  tool: string;
  query: string;
  page: number;
  pageSize: number;
}

/** The query a cursor belongs to: the arguments without cursor and limit, keys sorted. */
export function queryKey(args: Record<string, unknown>): string {
  const rest = Object.keys(args)
    .filter((k) => k !== 'cursor' && k !== 'limit')
    .sort()
    .map((k) => [k, args[k]]);
  return JSON.stringify(rest);
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify([state.tool, state.query, state.page, state.pageSize])).toString('base64url');
}

/** The cursor's state, checked against the call it came with. */
export function decodeCursor(cursor: string, tool: string, query: string): CursorState {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  const [t, q, page, pageSize] = Array.isArray(parts) ? parts : [];
  if (typeof t !== 'string' || typeof q !== 'string' || !Number.isSafeInteger(page) || page < 0 || !Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new UsageError('cursor is not a cursor this server gave');
  }
  if (t !== tool || q !== query) throw new UsageError('cursor belongs to another query: call again without cursor, or with the same arguments');
  return { tool: t, query: q, page, pageSize };
}
