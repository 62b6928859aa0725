import type { Db } from '../server/src/db/client';
import { whatsapps } from '../server/src/db/schema';
import { simNumbers, simSeedFromEnv } from '../server/src/gateway/simulator/network';
import { demoSeeders } from './registry';

type State = 'connected' | 'disconnected' | 'conflict' | 'loggedOut';

/**
 * Demo WhatsApp accounts. Their numbers are registered numbers of the simulated network (series
 * 'accounts', distinct from the demo's target numbers), and at start-up the server re-opens every
 * saved session in the simulator, so the connected ones can send right away.
 */
const ACCOUNTS: Array<{ owner: string; pushname: string; state: State; suspendedCount?: number }> = [
  { owner: 'member', pushname: 'Budi Toko Online', state: 'connected' },
  { owner: 'member', pushname: 'Budi CS 2', state: 'connected' },
  { owner: 'member', pushname: 'Budi Promo', state: 'disconnected' },
  { owner: 'member', pushname: 'Budi Reseller', state: 'conflict' },
  { owner: 'member', pushname: 'Budi Lama', state: 'loggedOut' },
  { owner: 'member', pushname: 'Budi Cadangan', state: 'connected', suspendedCount: 1 },
  { owner: 'member2', pushname: 'Rina Fashion', state: 'connected' },
  { owner: 'member2', pushname: 'Rina Kosmetik', state: 'connected' },
  { owner: 'member3', pushname: 'Agus Elektronik', state: 'connected' },
  { owner: 'member4', pushname: 'Siti Katering', state: 'connected' },
  { owner: 'member4', pushname: 'Siti Kue', state: 'disconnected' },
  { owner: 'member5', pushname: 'Joko Bengkel', state: 'connected' },
  { owner: 'staff', pushname: 'Validator Kantor', state: 'connected' },
];

async function seedAccounts(db: Db, users: Record<string, number>): Promise<void> {
  const numbers = simNumbers(simSeedFromEnv(), ACCOUNTS.length, { salt: 'accounts' });
  const base = 1_717_200_000_000;
  const rows = ACCOUNTS.flatMap((a, i) => {
    const userId = users[a.owner];
    const number = numbers[i]?.number;
    if (!userId || !number) return [];
    const clientid = `id-${base + i * 86_400_123}-${(i * 7919) % 10000}`;
    return [
      {
        deviceId: clientid,
        clientid,
        pushname: a.pushname,
        phonenumber: number,
        server: 'c.us',
        serialized: `${number}@c.us`,
        userId,
        state: a.state,
        status: 'idle' as const,
        suspended: (a.suspendedCount ?? 0) > 0,
        suspendedCount: a.suspendedCount ?? 0,
        createdAt: new Date(base + i * 86_400_123),
      },
    ];
  });
  if (rows.length) await db.insert(whatsapps).values(rows);
}

demoSeeders.push(seedAccounts);
