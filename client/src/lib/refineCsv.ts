/**
 * What `@refinedev/core` gets for `papaparse` in the browser build (vite.config.ts): its `useImport` and
 * `useExport` hooks name the CSV library at the top of Refine's single module, so Rolldown kept its 6.8 KB
 * gzip in every console screen although the console uses neither hook. The console's own CSV writer
 * (lib/download.ts) loads the real papaparse on the first export click. Should a screen start using
 * Refine's import/export hooks, they say so here instead of failing silently.
 */
function onDemand(): never {
  throw new Error("papaparse loads on demand in this console (lib/download.ts); Refine's useImport/useExport are not bundled");
}
export default { parse: onDemand, unparse: onDemand };
