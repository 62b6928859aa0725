/**
 * True when `err` (or an error it wraps, as the query builder wraps the driver's) is a unique-index
 * violation on `table.column`: SQLite says `UNIQUE constraint failed: users.email`, PostgreSQL answers
 * code 23505 with `Key (email)=(…) already exists.` for the index on that table.
 */
export function isUniqueViolation(err: unknown, table: string, column: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const { code, detail, table: pgTable } = e as Error & { code?: unknown; detail?: unknown; table?: unknown };
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' && e.message.includes(`${table}.${column}`)) return true;
    if (code === '23505' && (pgTable === undefined || pgTable === table) && typeof detail === 'string' && detail.startsWith(`Key (${column})=`)) return true;
  }
  return false;
}
