// Types of long-functions.mjs, for test/function-length.test.ts.
export const ROOT: string;
export const LIMIT: number;
export function longFunctions(limit?: number, under?: string): Array<[file: string, name: string, lines: number]>;
