import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../helpers';

/**
 * A search repeated page after page answers from the matches kept in memory, and any change that may
 * alter them (a number added, renamed or removed) is in the next answer: on both databases.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('admin');
});
afterAll(() => t.close());

const save = (number: string, name: string) => t.http.post('/api/admin/phonenumber/save').set(admin.auth).send({ number, name });
const search = async (page: number) => {
  const res = await t.http.get(`/api/admin/phonenumber/list-per-page?page=${page}&search=kemala`).set(admin.auth);
  expect(res.status).toBe(200);
  return { total: res.body.meta.total as number, names: (res.body.data as Array<{ name: string }>).map((r) => r.name) };
};

describe('a repeated search follows every change of the list', () => {
  it('adds, renames and removes matches between two identical searches', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await save(`0812${String(5550000 + i).padStart(8, '0')}`, i % 5 === 0 ? `Other ${i}` : `Kemala ${i}`);
      expect(res.status).toBe(201);
      ids.push(res.body.phoneNumber.id);
    }
    expect((await search(1)).total).toBe(12);
    expect((await search(2)).names).toEqual(['Kemala 13', 'Kemala 14']);

    // Added: the next identical search counts it.
    const added = await save('081299990001', 'Kemala baru');
    expect(added.status).toBe(201);
    expect(await search(2)).toEqual({ total: 13, names: ['Kemala 13', 'Kemala 14', 'Kemala baru'] });

    // Renamed into the matches and out of them.
    const renamed = await t.http.put(`/api/admin/phonenumber/${ids[0]}`).set(admin.auth).send({ number: '081205550000', name: 'Kemala nol', status: 'active' });
    expect(renamed.status).toBe(200);
    const out = await t.http.put(`/api/admin/phonenumber/${ids[14]}`).set(admin.auth).send({ number: '081205550014', name: 'Lain', status: 'active' });
    expect(out.status).toBe(200);
    const after = await search(1);
    expect(after.total).toBe(13);
    expect(after.names[0]).toBe('Kemala nol');
    expect((await search(2)).names).toEqual(['Kemala 12', 'Kemala 13', 'Kemala baru']);

    // Removed.
    expect((await t.http.delete(`/api/admin/phonenumber/${ids[13]}`).set(admin.auth)).status).toBe(200);
    expect(await search(2)).toEqual({ total: 12, names: ['Kemala 12', 'Kemala baru'] });
  });
});
