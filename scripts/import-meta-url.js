// Injected into the CommonJS bundles (scripts/build.mjs): import.meta.url as the file's own
// URL, computed when first read (pathToFileURL costs ~1 ms that most commands never use).
let url;
export const importMeta = {
  get url() {
    return (url ??= require('node:url').pathToFileURL(__filename).href);
  },
};
