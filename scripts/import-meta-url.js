// Injected into the CommonJS bundles (scripts/build.mjs): import.meta.url as the file's own URL.
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
