import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phoneNumbers, removedRecipients } from '../../server/src/db/schema';
import { one } from '../../server/src/db/raw';
import { addToPhoneList } from '../../server/src/engine/jobs/phone-list';
import { transaction } from '../../server/src/db/client';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const rowOf = (number: string) => one(t.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.number, number)));
const remembered = () => t.ctx.db.select().from(removedRecipients);

/** Adds a number, marks it sent `ago` ms before now, deletes it through the API; the send time. */
async function sentThenDeleted(number: string, ago: number): Promise<Date> {
  const saved = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number, name: 'Sri' });
  expect(saved.status).toBe(201);
  const at = new Date(Date.now() - ago);
  await t.ctx.db.update(phoneNumbers).set({ lastSent: at }).where(eq(phoneNumbers.number, number));
  const row = await rowOf(number);
  expect((await t.http.delete(`/api/admin/phonenumber/${row!.id}`).set(admin.auth)).status).toBe(200);
  return at;
}

describe('a number deleted from the list and added back keeps its recipient cooldown', () => {
  it('saved again by hand, in another writing, it keeps the last send; the memory is then gone', async () => {
    const at = await sentThenDeleted('6289665150651', 5 * 60_000);
    expect(await remembered()).toEqual([{ number: '6289665150651', lastSent: at }]);
    expect((await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '0896-6515-0651', name: 'Sri' })).status).toBe(201);
    expect((await rowOf('6289665150651'))!.lastSent).toEqual(at);
    expect(await remembered()).toEqual([]);
  });

  it('imported again (CSV), it keeps the last send; other new numbers stay never-sent', async () => {
    const at = await sentThenDeleted('6289665150652', 60_000);
    const csv = 'number,name\n+62 896-6515-0652,Sri\n0896-6515-0653,Baru\n';
    const res = await t.http.post('/api/admin/phonenumber/import').set(admin.auth).attach('file', Buffer.from(csv), 'n.csv');
    expect(res.status).toBe(200);
    expect(res.body.createdCount).toBe(2);
    expect((await rowOf('6289665150652'))!.lastSent).toEqual(at);
    expect((await rowOf('6289665150653'))!.lastSent).toBeNull();
    expect(await remembered()).toEqual([]);
  });

  it("added back by a job's 'save to list', it keeps the last send", async () => {
    const at = await sentThenDeleted('6289665150654', 60_000);
    expect(await transaction(t.ctx.db, (tx) => addToPhoneList(tx, '6289665150654', 'Sri'))).toBe('added');
    expect((await rowOf('6289665150654'))!.lastSent).toEqual(at);
  });

  it('a number never sent to leaves nothing behind, and sends older than the longest cooldown are forgotten', async () => {
    const saved = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '6289665150655', name: 'Baru' });
    expect((await t.http.delete(`/api/admin/phonenumber/${saved.body.phoneNumber?.id ?? saved.body.id}`).set(admin.auth)).status).toBe(200);
    expect(await remembered()).toEqual([]);
    await sentThenDeleted('6289665150656', 8761 * 3600_000);
    await sentThenDeleted('6289665150657', 60_000);
    expect((await remembered()).map((r) => r.number)).toEqual(['6289665150657']);
  });

  it('renumbering a row remembers the old number and gives the row the new number\'s own last send', async () => {
    const saved = await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '6289665150660', name: 'Lama' });
    const at = new Date(Date.now() - 60_000);
    await t.ctx.db.update(phoneNumbers).set({ lastSent: at }).where(eq(phoneNumbers.number, '6289665150660'));
    const id = (await rowOf('6289665150660'))!.id;
    const edited = await t.http.put(`/api/admin/phonenumber/${id}`).set(admin.auth).send({ number: '6289665150661', name: 'Baru', status: 'active' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await rowOf('6289665150661'))!.lastSent).toBeNull();
    expect((await remembered()).filter((r) => r.number.startsWith('628966515066'))).toEqual([{ number: '6289665150660', lastSent: at }]);
    expect(saved.status).toBe(201);
    // Saved again, the old number keeps its cooldown.
    expect((await t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number: '6289665150660', name: 'Lama' })).status).toBe(201);
    expect((await rowOf('6289665150660'))!.lastSent).toEqual(at);
  });

  it('a number remembered twice keeps its later send', async () => {
    const later = await sentThenDeleted('6289665150670', 60_000);
    // The same number listed again without its memory (as an older row would be), sent to longer ago, deleted.
    await t.ctx.db.insert(phoneNumbers).values({ number: '6289665150670', name: 'Sri', lastSent: new Date(Date.now() - 3600_000) });
    const row = await rowOf('6289665150670');
    expect((await t.http.delete(`/api/admin/phonenumber/${row!.id}`).set(admin.auth)).status).toBe(200);
    expect((await remembered()).find((r) => r.number === '6289665150670')?.lastSent).toEqual(later);
  });
});
