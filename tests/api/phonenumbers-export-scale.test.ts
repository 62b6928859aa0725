import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';
import { padded, run, series, text } from './sql-fixtures';

let t: TestApp;
let admin: TestUser;
const ROWS = 200_000;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
  // Numbers 62812 + i in eight digits, names `Nama, "i"` (a comma and quotes for the CSV to escape), in id order.
  const db = t.ctx.db;
  await run(db, text(`${series(ROWS)} INSERT INTO phone_numbers (number, name) SELECT '62812' || ${padded(db, 'i', 8)}, 'Nama, "' || i || '"' FROM s ORDER BY i`));
});
afterAll(() => t.close());

/**
 * Downloads in another process, as a browser would: a reader that drains every write at once,
 * which a client on the server's own thread cannot be.
 */
function timedExport(format: 'csv' | 'json'): Promise<{ end: number; text: string }> {
  const script = `fetch(process.argv[1], { headers: { Authorization: process.argv[2] } }).then(async (r) => process.stdout.write(r.status + '\\n' + (await r.text())))`;
  const child = spawn(process.execPath, ['-e', script, `${t.baseUrl}/api/admin/phonenumber/export?format=${format}`, admin.auth.Authorization]);
  const parts: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => parts.push(b));
  return new Promise((resolve) =>
    child.on('close', () => {
      const all = Buffer.concat(parts).toString();
      const nl = all.indexOf('\n');
      expect(all.slice(0, nl)).toBe('200');
      resolve({ end: performance.now(), text: all.slice(nl + 1) });
    }),
  );
}
describe('phone-number export at scale', () => {
  it('streams every row in pages, never keeping the event loop for the whole download', async () => {
    for (const format of ['csv', 'json'] as const) {
      let last = performance.now();
      let worstGap = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        worstGap = Math.max(worstGap, now - last);
        last = now;
      }, 2);
      const start = performance.now();
      const { end, text } = await timedExport(format);
      clearInterval(ticker);
      // Before each page yielded, a fast reader got the whole export in one task.
      expect(worstGap).toBeLessThan((end - start) / 2);
      if (format === 'csv') {
        const lines = text.trim().split('\r\n');
        expect(lines).toHaveLength(ROWS + 1);
        expect(lines[ROWS]).toBe(`62812${String(ROWS - 1).padStart(8, '0')},"Nama, ""${ROWS - 1}""",active`);
      } else {
        const rows = JSON.parse(text) as Array<{ number: string }>;
        expect(rows).toHaveLength(ROWS);
        expect(rows[ROWS - 1]!.number).toBe(`62812${String(ROWS - 1).padStart(8, '0')}`);
      }
    }
  });
});
