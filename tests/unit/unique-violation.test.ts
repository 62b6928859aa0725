import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { isUniqueViolation } from '../../server/src/db/errors';

/** The error node-postgres raises for a duplicate key (fields as the server sends them). */
function postgresDuplicate(table: string, column: string): Error {
  return Object.assign(new Error(`duplicate key value violates unique constraint "${table}_${column}_uq"`), {
    code: '23505',
    table,
    constraint: `${table}_${column}_uq`,
    detail: `Key (${column})=(someone@test.local) already exists.`,
  });
}

describe('isUniqueViolation', () => {
  it('recognises SQLite\'s own error for the named column only', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE users (email TEXT UNIQUE, referral_code TEXT UNIQUE)');
    db.prepare('INSERT INTO users VALUES (?, ?)').run('a@test.local', 'A');
    let error: unknown;
    try {
      db.prepare('INSERT INTO users VALUES (?, ?)').run('a@test.local', 'B');
    } catch (err) {
      error = err;
    }
    db.close();
    expect(isUniqueViolation(error, 'users', 'email')).toBe(true);
    expect(isUniqueViolation(error, 'users', 'referral_code')).toBe(false);
  });

  it('recognises PostgreSQL\'s duplicate key, also when the query builder wraps it', () => {
    const raw = postgresDuplicate('users', 'email');
    expect(isUniqueViolation(raw, 'users', 'email')).toBe(true);
    expect(isUniqueViolation(new Error('Failed query: insert into "users" …', { cause: raw }), 'users', 'email')).toBe(true);
    expect(isUniqueViolation(raw, 'users', 'referral_code')).toBe(false);
    expect(isUniqueViolation(postgresDuplicate('proxies', 'email'), 'users', 'email')).toBe(false);
    expect(isUniqueViolation(new Error('connection lost'), 'users', 'email')).toBe(false);
    expect(isUniqueViolation('not an error', 'users', 'email')).toBe(false);
  });
});
