import fs from 'node:fs';
import { fromRoot } from './paths';

/**
 * The build's version string, `<package version>+<commit>` (a semver build suffix), computed when the server
 * is bundled (scripts/build.mjs, scripts/package.mjs define `__BLAST_BUILD__`). `--version` and /api/health
 * say the same. Run from the TypeScript sources, the commit is `source`.
 */
declare const __BLAST_BUILD__: { version: string; commit: string } | undefined;

let cached: string | null = null;

export function appVersion(): string {
  if (cached) return cached;
  if (typeof __BLAST_BUILD__ !== 'undefined') cached = `${__BLAST_BUILD__.version}+${__BLAST_BUILD__.commit}`;
  else cached = `${(JSON.parse(fs.readFileSync(fromRoot('package.json'), 'utf8')) as { version: string }).version}+source`;
  return cached;
}
