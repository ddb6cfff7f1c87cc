// Requests in flight for one command: the pages of a list walk ahead (--concurrency of
// a list, paginate.ts) and the records of a batch (--concurrency of a mutation verb,
// src/mutation/). Defined once; imports nothing, so a verb file's flags stay light.

/** Requests in flight when --concurrency is not given. */
export const DEFAULT_CONCURRENCY = 4;
/** The most --concurrency accepts. */
export const MAX_CONCURRENCY = 16;
