// Types of resource-fields.mjs, for the test of its reading rules and of the module it wrote.
export const OUTPUT: string;
export function parseResources(markdown: string): Map<string, Map<string, { type: string; ref?: string }>>;
export function renderModule(resources: ReturnType<typeof parseResources>): string;
