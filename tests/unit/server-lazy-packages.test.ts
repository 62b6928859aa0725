import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Packages only a PostgreSQL or Redis setup uses: the default SQLite server must not load them at start. */
// (Migrations go through Drizzle's dialect migrator, server/src/db/migrations.ts: no migrator module is imported.)
const ON_DEMAND = ['pg', 'drizzle-orm/node-postgres', 'redis', '@socket.io/redis-adapter', 'rate-limit-redis'];

describe('the server entry', () => {
  it('imports the PostgreSQL and Redis packages only on demand', async () => {
    const result = await esbuild.build({
      entryPoints: ['server/src/main.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      write: false,
      metafile: true,
      outfile: 'main.js',
      logLevel: 'silent',
    });
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports);
    for (const name of ON_DEMAND) {
      const kinds = new Set(imports.filter((i) => i.path === name).map((i) => i.kind));
      expect({ name, kinds: [...kinds] }).toEqual({ name, kinds: ['dynamic-import'] });
    }
  }, 30_000);
});
