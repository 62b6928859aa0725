import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { keepStatements, prepareAlone } from '../../server/src/db/sqlite/statements';

describe('kept SQLite statements', () => {
  let c: Database.Database;
  afterEach(() => c?.close());

  const open = () => {
    c = new Database(':memory:');
    keepStatements(c);
    c.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t (v) VALUES ('a'), ('b')");
    return c;
  };

  it('compiles a text once and hands the same statement back', () => {
    open();
    const first = c.prepare('SELECT v FROM t WHERE id = ?');
    expect(c.prepare('SELECT v FROM t WHERE id = ?')).toBe(first);
    expect(c.prepare('SELECT v FROM t WHERE id = ? ')).not.toBe(first);
  });

  it('hands a statement back in its plain mode whatever the last caller set', () => {
    open();
    expect(c.prepare('SELECT id, v FROM t ORDER BY id').raw().all()).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(c.prepare('SELECT id, v FROM t ORDER BY id').all()).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
    expect(c.prepare('SELECT v FROM t ORDER BY id').pluck().all()).toEqual(['a', 'b']);
    expect(c.prepare('SELECT v FROM t ORDER BY id').get()).toEqual({ v: 'a' });
    // Statements that return no data have no modes to reset.
    expect(c.prepare("INSERT INTO t (v) VALUES ('c')").run().changes).toBe(1);
    expect(c.prepare("INSERT INTO t (v) VALUES ('c')").run().changes).toBe(1);
  });

  it('keeps a statement prepared alone out of the cache, so its mode stays its own', () => {
    open();
    const mine = prepareAlone(c, 'SELECT id FROM t ORDER BY id').raw();
    const shared = c.prepare('SELECT id FROM t ORDER BY id');
    expect(shared).not.toBe(mine);
    expect(shared.all()).toEqual([{ id: 1 }, { id: 2 }]);
    expect(mine.all()).toEqual([[1], [2]]);
  });

  it('keeps at most 500 texts, dropping the least recently used', () => {
    open();
    const hot = c.prepare('SELECT 0');
    const cold = c.prepare('SELECT 1');
    for (let i = 2; i <= 600; i++) {
      c.prepare(`SELECT ${i}`);
      if (i % 100 === 0) expect(c.prepare('SELECT 0')).toBe(hot);
    }
    expect(c.prepare('SELECT 0')).toBe(hot);
    expect(c.prepare('SELECT 1')).not.toBe(cold);
    expect(c.prepare('SELECT 600')).toBe(c.prepare('SELECT 600'));
  });

  it('follows a schema change without a stale plan', () => {
    open();
    expect(c.prepare('SELECT * FROM t WHERE id = 1').get()).toEqual({ id: 1, v: 'a' });
    c.exec('ALTER TABLE t ADD COLUMN w TEXT');
    expect(c.prepare('SELECT * FROM t WHERE id = 1').get()).toEqual({ id: 1, v: 'a', w: null });
  });
});
