// Helpers of scripts/build.mjs: which sources each output is built from, the stamp that says whether
// an output is stale, and the pre-compression of the client's files. Plain JavaScript, so `node` runs it
// before anything is compiled.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** The files and folders each output is built from (relative to the project folder). */
export const CLIENT_INPUTS = ['client', 'common', 'vite.config.ts', 'tsconfig.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/build-lib.mjs'];
export const SERVER_INPUTS = ['server', 'common', 'seed', 'tsconfig.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/build-lib.mjs'];

/** Tests are not part of any output: editing one rebuilds nothing. */
const IGNORED = /(^|\/)(node_modules|\.git)(\/|$)|\.test\.[cm]?[jt]sx?$/;

/** Every file under the inputs, as sorted project-relative paths with '/' separators. */
export function sourceFiles(root, inputs) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    let stat;
    try {
      stat = fs.statSync(abs);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs)) walk(rel === '' ? name : `${rel}/${name}`);
    } else if (stat.isFile() && !IGNORED.test(rel)) out.push(rel);
  };
  for (const input of inputs) walk(input.split(path.sep).join('/'));
  return [...new Set(out)].sort();
}

/**
 * The stamp of a source tree: a hash of each file's path and contents. Contents rather than
 * modification times, so a fresh checkout of the same commit is not mistaken for a change.
 */
export function stampOf(root, files) {
  const hash = crypto.createHash('sha256');
  for (const rel of files) {
    hash.update(rel);
    hash.update('\0');
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** An output needs a build when it is missing, was never stamped, or was built from other sources. */
export function isStale(previousStamp, currentStamp, outputExists) {
  return !outputExists || !previousStamp || previousStamp.trim() !== currentStamp;
}

export function readStamp(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|ico|webmanifest|wasm|ttf|otf)$/i;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `name.br` and `name.gz` next to every compressible file under `dir` (best levels: this runs
 * once per build, not per request). A variant that would not be smaller is not written.
 * Returns how many files got variants.
 */
export async function compressAssets(dir) {
  const files = [];
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, entry.name);
      // Dot folders (Vite's .vite/manifest.json) are build metadata, never served.
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.')) walk(abs);
      }
      else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) files.push(abs);
    }
  };
  walk(dir);
  let compressed = 0;
  await Promise.all(
    files.map(async (file) => {
      const body = fs.readFileSync(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      let wrote = false;
      for (const [ext, data] of [['.br', br], ['.gz', gz]]) {
        fs.rmSync(file + ext, { force: true });
        if (data.length < body.length) {
          fs.writeFileSync(file + ext, data);
          wrote = true;
        }
      }
      if (wrote) compressed += 1;
    }),
  );
  return compressed;
}

/**
 * The commit a build is made from, for the version string (`0.1.0+<commit>`): git's short hash, with
 * `.dirty` when tracked files differ from it; `unknown` outside a git checkout.
 */
export function buildCommit(root) {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git('rev-parse', '--short=12', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${commit}.dirty` : commit;
  } catch {
    return 'unknown';
  }
}

/** What a bundle defines `__BLAST_BUILD__` as (see server/src/lib/build-info.ts). */
export function buildInfo(root) {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return { version, commit: buildCommit(root) };
}

/** Every file under `dir` (dot folders left out: build metadata), as sorted '/'-separated relative paths. */
function filesUnder(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) walk(r);
      } else if (e.isFile()) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/**
 * The built client as the single executable embeds it (server/src/lib/static-embedded.ts): `files`, every
 * file to embed (variants included), and `client`, each plain file with its etag and the variants beside it.
 */
export function clientManifest(dir) {
  const all = new Set(filesUnder(dir));
  // Of the build metadata, the server reads the routes' preloads (server/src/lib/preloads.ts); it is never served.
  if (fs.existsSync(path.join(dir, '.vite/preloads.json'))) all.add('.vite/preloads.json');
  const client = {};
  for (const rel of all) {
    if (/\.(br|gz)$/.test(rel) && all.has(rel.replace(/\.(br|gz)$/, ''))) continue;
    const etag = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, rel))).digest('hex').slice(0, 24);
    client[rel] = { etag, br: all.has(`${rel}.br`), gz: all.has(`${rel}.gz`) };
  }
  return { client, files: [...all] };
}
