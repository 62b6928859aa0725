import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { Db } from '../../server/src/db/client';
import { levels, messageTemplates, phoneNumbers, settings, users, whatsapps } from '../../server/src/db/schema';
import { simNumbers } from '../../server/src/gateway/simulator/network';

/** The simulator's seed: the targets are numbers it knows, so the benches' simulators use it too. */
export const BENCH_SEED = 'bench';

/** Inserts rows in chunks (one statement per chunk). */
async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * What the engine benches blast with: rules without intervals (price 25, referral 10 %), three levels,
 * three templates, members owning four connected accounts each (every tenth member referred by the
 * first), and `targets` simulated numbers drawn from BENCH_SEED with `salt`. Plain statements, no
 * transaction(): a measured run should not start with the asynchronous transaction machinery already
 * switched on by the seeding.
 */
export async function seedEngineBench(db: Db, accounts: number, targets: number, salt: string): Promise<void> {
  await db.update(settings).set({ intervalMin: 0, intervalMax: 0, price: 25, referralPercent: 10, recipientCooldownHours: 24, sendFrom: '00:00', sendTo: '00:00' }).where(eq(settings.id, 1));
  await db.insert(levels).values([
    { name: 'Bronze', blastFee: 50, requirementBlast: 0 },
    { name: 'Silver', blastFee: 75, requirementBlast: 100 },
    { name: 'Gold', blastFee: 100, requirementBlast: 1000 },
  ]);
  for (let i = 0; i < 3; i++) await db.insert(messageTemplates).values({ text: `<p>Halo {name} ${i}</p>`, textWa: `Halo {name}, promo ${i} untuk {phoneNumber}` });
  const members = Math.ceil(accounts / 4);
  const memberRows = Array.from({ length: members }, (_, i) => {
    const m = i + 1;
    return { firstname: `Member${m}`, lastname: 'Bench', email: `m${m}@bench.local`, passwordHash: 'x', role: 'member' as const, referralCode: `B${m}`, referredBy: m % 10 === 0 ? 1 : null };
  });
  await insertChunked(memberRows, 500, (chunk) => db.insert(users).values(chunk));
  const accountRows = Array.from({ length: accounts }, (_, a) => {
    const phone = `62899${String(a).padStart(8, '0')}`;
    const id = `id-bench-${a}`;
    return { deviceId: id, clientid: id, pushname: `Akun ${a}`, phonenumber: phone, server: 'c.us', serialized: `${phone}@c.us`, userId: (a % members) + 1, state: 'connected' };
  });
  await insertChunked(accountRows, 500, (chunk) => db.insert(whatsapps).values(chunk));
  const targetRows = simNumbers(BENCH_SEED, targets, { salt }).map((n) => ({ number: n.number, name: n.name ?? '' }));
  await insertChunked(targetRows, 1000, (chunk) => db.insert(phoneNumbers).values(chunk));
}

/** The admin whose socket (bench/lib/admin-socket.ts) watches the engine benches' live events. */
export async function insertBenchAdmin(db: Db) {
  const [admin] = await db.insert(users).values({ firstname: 'Admin', email: 'admin@bench.local', passwordHash: 'x', role: 'admin', referralCode: 'ADMINB' }).returning();
  return admin!;
}

/**
 * The admin's browser for the engine benches: bench/lib/admin-socket.ts in its own process, connected
 * to the app on `port` with `token`; its stdout carries the figures, its stdin (when piped) the marks.
 */
export function spawnAdminSocket(port: number, token: string, stdin: 'pipe' | 'ignore' = 'ignore'): ChildProcess {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'admin-socket.ts');
  return spawn(process.execPath, ['--import', 'tsx', script, `http://127.0.0.1:${port}`, token], { stdio: [stdin, 'pipe', 'inherit'] });
}
