/**
 * `npm run bench [name…] [options]`: runs every benchmark in bench/ (each `*.ts` file here except
 * this one; helpers live in bench/lib/), or only those named, one after another, each in its own
 * process. Arguments that are not benchmark names (`--quick`, `--rows 1000`) go to every benchmark.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const all = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .sort();
const isBench = (a: string) => all.includes(`${path.basename(a).replace(/\.ts$/, '')}.ts`);
const args = process.argv.slice(2);
const names = args.filter(isBench).map((a) => path.basename(a).replace(/\.ts$/, ''));
const flags = args.filter((a) => !isBench(a));
const chosen = names.length ? names.map((n) => `${n}.ts`) : all;
let failed = 0;
for (const file of chosen) {
  console.log(`\n=== ${file} ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file), ...flags], { stdio: 'inherit' });
  if (res.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
