import { defineConfig } from 'drizzle-kit';

/** PostgreSQL migrations, written from the mirror schema into drizzle/pg (applied at start). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/src/db/pg/schema.ts',
  out: './drizzle/pg',
});
