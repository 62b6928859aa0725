// Builds the console for `node`: the client with Vite into dist/client (plus .br/.gz of each file) and the
// server with esbuild into dist/server (ESM, node_modules left external, source maps).
//
//   node scripts/build.mjs                    build both, always (npm run build)
//   node scripts/build.mjs --if-stale         build only what its sources changed since the last build
//   node scripts/build.mjs --if-stale server  the same, for the server only (npm run user:create)
//
// Each output's stamp (dist/client.stamp, dist/server.stamp) is the hash of the sources it was built from.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { CLIENT_INPUTS, SERVER_INPUTS, buildInfo, compressAssets, isStale, readStamp, sourceFiles, stampOf } from './build-lib.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');

const targets = {
  client: {
    inputs: CLIENT_INPUTS,
    output: path.join(dist, 'client', 'index.html'),
    stamp: path.join(dist, 'client.stamp'),
    build: buildClient,
  },
  server: {
    inputs: SERVER_INPUTS,
    output: path.join(dist, 'server', 'main.js'),
    stamp: path.join(dist, 'server.stamp'),
    // The version string carries the commit: a new commit rebuilds the server even with the same sources.
    extraStamp: () => JSON.stringify(buildInfo(root)),
    build: buildServer,
  },
};

async function buildClient() {
  const { build } = await import('vite');
  await build({ root: path.join(root, 'client'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
  const n = await compressAssets(path.join(dist, 'client'));
  return `${n} files pre-compressed`;
}

/**
 * A JSON file imported from a package (libphonenumber's metadata) is bundled: Node's ESM loader would
 * refuse the bare import without an import attribute.
 */
const bundlePackageJson = {
  name: 'bundle-package-json',
  setup(build) {
    build.onResolve({ filter: /\.json$/ }, (args) => {
      if (args.path.startsWith('.') || path.isAbsolute(args.path)) return undefined;
      return { path: createRequire(path.join(args.resolveDir, 'index.js')).resolve(args.path) };
    });
  },
};

async function buildServer() {
  const esbuild = await import('esbuild');
  const out = path.join(dist, 'server');
  fs.rmSync(out, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: 'server/src/main.ts',
      'user-create': 'server/src/cli/user-create.ts',
      'import-worker': 'server/src/db/sqlite/import-worker.ts',
      // The operator's commands (backup, restore, migrate, …) for an install run with npm.
      cli: 'server/src/cli/bin.ts',
    },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [bundlePackageJson],
    sourcemap: true,
    define: { __BLAST_BUILD__: JSON.stringify(buildInfo(root)) },
    logLevel: 'warning',
  });
  return 'main.js, user-create.js, import-worker.js, cli.js';
}

async function main() {
  const args = process.argv.slice(2);
  const ifStale = args.includes('--if-stale');
  const named = args.filter((a) => !a.startsWith('--'));
  for (const name of named) if (!(name in targets)) throw new Error(`Unknown build target "${name}" (client, server)`);
  const chosen = named.length ? named : Object.keys(targets);
  fs.mkdirSync(dist, { recursive: true });
  for (const name of chosen) {
    const t = targets[name];
    const stamp = stampOf(root, sourceFiles(root, t.inputs)) + (t.extraStamp ? `:${t.extraStamp()}` : '');
    if (ifStale && !isStale(readStamp(t.stamp), stamp, fs.existsSync(t.output))) continue;
    // Test files run in parallel and each may ask for a build: one builds, the others wait and find it done.
    const release = await lock(`${t.stamp}.lock`);
    try {
      if (ifStale && !isStale(readStamp(t.stamp), stamp, fs.existsSync(t.output))) continue;
      const started = Date.now();
      console.log(`Building the ${name}…`);
      fs.rmSync(t.stamp, { force: true });
      const detail = await t.build();
      fs.writeFileSync(t.stamp, `${stamp}\n`);
      console.log(`Built the ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s (${detail}).`);
    } finally {
      release();
    }
  }
}

/** A folder as a lock between processes; one left by a build that died (over 5 minutes old) is taken over. */
async function lock(dir) {
  for (;;) {
    try {
      fs.mkdirSync(dir);
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs > 5 * 60_000) fs.rmSync(dir, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
