/**
 * The single executable's embedded files (Node SEA assets). `npm run package` bundles the server with
 * `__BLAST_SEA__` defined true; from the sources or dist/server nothing is embedded and every caller reads
 * the project's folders as before. `node:sea` is reached through process.getBuiltinModule, so the sources
 * never import it (it only exists inside an executable's runtime and Node ≥ 20.12).
 */
declare const __BLAST_SEA__: boolean | undefined;

export const isEmbedded = (): boolean => typeof __BLAST_SEA__ !== 'undefined' && __BLAST_SEA__;

function sea(): typeof import('node:sea') {
  return process.getBuiltinModule('node:sea');
}

/** The asset's bytes, without a copy (the executable's own memory): callers must not write into it. */
export function embeddedBytes(key: string): Uint8Array {
  return new Uint8Array(sea().getRawAsset(key) as ArrayBuffer);
}

export function embeddedText(key: string): string {
  return sea().getAsset(key, 'utf8');
}

/** The asset, or null when the executable holds none by that key. */
export function embeddedTextOrNull(key: string): string | null {
  try {
    return embeddedText(key);
  } catch {
    return null;
  }
}

/** Asset keys of the bundled server (the worker runs it again) and of the manifest written by the packager. */
export const BUNDLE_ASSET = 'server.cjs';
export const MANIFEST_ASSET = 'manifest.json';

export interface EmbeddedManifest {
  /** Client files: URL path (no leading slash) → etag and which pre-compressed variants exist. */
  client: Record<string, { etag: string; br: boolean; gz: boolean }>;
  /** The better-sqlite3 addon's sha256 (hex), the name of its cached copy. */
  addonSha256: string;
}

let manifest: EmbeddedManifest | null = null;
export function embeddedManifest(): EmbeddedManifest {
  manifest ??= JSON.parse(embeddedText(MANIFEST_ASSET)) as EmbeddedManifest;
  return manifest;
}
