import type Database from 'better-sqlite3';

/** Statements kept per connection; the SQL a request builds repeats, so few are ever evicted. */
const LIMIT = 500;
const UNSHARED = Symbol('prepare without keeping');
type Keeping = Database.Database & { [UNSHARED]?: Database.Database['prepare'] };

/**
 * A statement of its own, never shared through `keepStatements`: for code that keeps a statement
 * for the life of an object (the engine's, an import's), whose mode nobody else may change.
 */
export function prepareAlone<P extends unknown[] | object = unknown[], R = unknown>(client: Database.Database, source: string): Database.Statement<P, R> {
  const own = (client as Keeping)[UNSHARED];
  return (own ? own(source) : client.prepare(source)) as Database.Statement<P, R>;
}

/**
 * Keeps the connection's prepared statements by SQL text, so a query Drizzle (or our own SQL)
 * builds again on every request is compiled by SQLite once instead of every time. SQLite
 * re-prepares a kept statement by itself after a schema change.
 *
 * A statement is shared by everyone who prepares the same text: each `prepare` hands it back in its
 * plain mode (not raw, plucked or expanded), and a caller that sets a mode uses the statement
 * before its next `await`. Every statement here runs to completion synchronously (`all`, `get`,
 * `run`); an `iterate` left open would make the next user of the same text fail loudly. Code that
 * keeps a statement for longer prepares it with `prepareAlone`.
 */
export function keepStatements(client: Database.Database): void {
  const prepare = client.prepare.bind(client);
  (client as Keeping)[UNSHARED] = prepare;
  const kept = new Map<string, Database.Statement>();
  client.prepare = ((source: string) => {
    let statement = kept.get(source);
    if (statement) {
      // Most recently used last: the first entry is the one to evict.
      kept.delete(source);
      if (statement.reader) statement.raw(false).pluck(false).expand(false);
    } else {
      statement = prepare(source);
      if (kept.size >= LIMIT) kept.delete(kept.keys().next().value as string);
    }
    kept.set(source, statement);
    return statement;
  }) as Database.Database['prepare'];
}
