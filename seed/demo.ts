import { count, eq } from 'drizzle-orm';
import { transaction, type Db } from '../server/src/db/client';
import { one } from '../server/src/db/raw';
import { levels, settings, users } from '../server/src/db/schema';
import { createUser } from '../server/src/auth/service';
import { hashPassword } from '../server/src/auth/password';
import { demoSeeders } from './registry';
import './areas';

export const DEMO_PASSWORD = 'demo12345';

export const DEMO_LOGINS = [
  { email: 'admin@demo.test', role: 'admin' },
  { email: 'dev@demo.test', role: 'dev' },
  { email: 'staff@demo.test', role: 'staff' },
  { email: 'member@demo.test', role: 'member' },
  { email: 'member2@demo.test', role: 'member' },
] as const;

export async function isEmpty(db: Db): Promise<boolean> {
  return ((await one(db.select({ n: count() }).from(users)))?.n ?? 0) === 0;
}

/**
 * Seeds the demo data into an empty database; does nothing otherwise. Everything goes in as one
 * transaction: a start cut while seeding (Ctrl-C, a crash, a failed step) leaves the database empty,
 * and the next start seeds the whole demo again.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  // Every demo login has the same published password: one hash serves them all (scrypt is the slow part).
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return transaction(db, async (tx) => {
    if (!(await isEmpty(tx))) return false;
    await seedDemoRows(tx, passwordHash);
    return true;
  });
}

async function seedDemoRows(db: Db, passwordHash: string): Promise<void> {
  const ids: Record<string, number> = {};
  const make = async (
    key: string,
    firstname: string,
    lastname: string,
    email: string,
    role: 'admin' | 'dev' | 'staff' | 'member',
    referredBy: number | null = null,
    referralCode?: string,
  ) => {
    const u = await createUser(db, { firstname, lastname, email, passwordHash, role, referredBy, referralCode });
    ids[key] = u.id;
    return u;
  };
  await make('admin', 'Adi', 'Santoso', 'admin@demo.test', 'admin');
  await make('dev', 'Dewi', 'Lestari', 'dev@demo.test', 'dev');
  await make('staff', 'Sari', 'Wulandari', 'staff@demo.test', 'staff');
  const member = await make('member', 'Budi', 'Setiawan', 'member@demo.test', 'member', null, 'BUDI2024');
  await make('member2', 'Rina', 'Kusuma', 'member2@demo.test', 'member', member.id);
  await make('member3', 'Agus', 'Pratama', 'agus@demo.test', 'member', member.id);
  await make('member4', 'Siti', 'Rahmawati', 'siti@demo.test', 'member');
  await make('member5', 'Joko', 'Widodo', 'joko@demo.test', 'member', ids.member4);
  await db
    .update(users)
    .set({ accountBank: 'BCA', accountNumber: '1234567890', accountName: 'Budi Setiawan' })
    .where(eq(users.id, member.id));

  await db.insert(levels).values([
    { name: 'Bronze', blastFee: 50, requirementBlast: 0 },
    { name: 'Silver', blastFee: 75, requirementBlast: 1000 },
    { name: 'Gold', blastFee: 100, requirementBlast: 5000 },
  ]);
  await db
    .update(settings)
    .set({
      intervalMin: 5,
      intervalMax: 15,
      price: 50,
      referralPercent: 10,
      colors: '#2C2C2C, #3E3A32, #B8860B',
      info: 'Selamat datang di layanan Blast! Bonus akhir bulan untuk member dengan blast terbanyak.',
      // 'Jam Kirim' always open: the demo (and the browser tests on it) blasts at any hour; a real install keeps 08:00–20:00.
      sendFrom: '00:00',
      sendTo: '00:00',
    })
    .where(eq(settings.id, 1));

  for (const seeder of demoSeeders) await seeder(db, ids);
}
