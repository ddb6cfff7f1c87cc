// Types of resource-fields.mjs, for the test that keeps src/api/resource-fields.ts current.
export const OUTPUT: string;
export const DEFAULT_SOURCE: string;
export function parseResources(markdown: string): Map<string, Map<string, { type: string; ref?: string }>>;
export function renderModule(resources: ReturnType<typeof parseResources>): string;
