/**
 * `qs` for the browser build: vite.config.ts points Refine's `import qs from "qs"` here. qs-esm is the
 * maintained ES-module fork of qs (same parse/stringify and options) without qs's side-channel,
 * object-inspect and get-intrinsic chain; it has named exports only, so this adds the default one.
 */
import { parse, stringify } from 'qs-esm';

export { parse, stringify };
export default { parse, stringify };
