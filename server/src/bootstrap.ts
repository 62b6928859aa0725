import { eq, inArray } from 'drizzle-orm';
import type { Config } from './config';
import { oneStartAtATime, type Db } from './db/client';
import { users } from './db/schema';
import { createUser } from './auth/service';
import { DEMO_LOGINS, seedDemo } from '../../seed/demo';

export interface BootstrapResult {
  /** null: the demo is off; true: seeded now; false: the database already had users. */
  demoSeeded: boolean | null;
  /** The email of the admin this start created from ADMIN_EMAIL, if it did. */
  adminCreated: string | null;
  /** What the operator should read after the start line (first-admin hint, warnings). */
  notices: string[];
}

export const FIRST_ADMIN_HINT = [
  'No admin account exists yet. Create the first one with',
  '  npm run user:create -- --email you@example.com --password <8+ characters> --role admin',
  'or start once with ADMIN_EMAIL and ADMIN_PASSWORD set.',
];

const hasAdmin = async (db: Db): Promise<boolean> =>
  (await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1)).length > 0;

/**
 * The data a start puts in place: the demo (embedded default, or DEMO=true) into an empty database, then
 * the first admin from ADMIN_EMAIL/ADMIN_PASSWORD when no admin exists. An existing account is never
 * changed: an ADMIN_EMAIL that already belongs to someone creates nothing.
 */
export function bootstrapData(db: Db, config: Config, log: (msg: string) => void): Promise<BootstrapResult> {
  // Nodes starting together on an empty database: one seeds and creates the admin, the others then find them.
  return oneStartAtATime(db, () => putFirstData(db, config, log));
}

async function putFirstData(db: Db, config: Config, log: (msg: string) => void): Promise<BootstrapResult> {
  const result: BootstrapResult = { demoSeeded: null, adminCreated: null, notices: [] };
  if (config.demo) result.demoSeeded = await seedDemo(db);

  if (config.firstAdmin && (await hasAdmin(db))) {
    const email = config.firstAdmin.email.toLowerCase();
    const [mine] = await db.select({ role: users.role }).from(users).where(eq(users.email, email)).limit(1);
    if (mine?.role !== 'admin') result.notices.push(`ADMIN_EMAIL ${email} was not used: this database already has an admin${result.demoSeeded === true ? ' (the demo seeded one)' : ''}.`);
  }
  if (config.firstAdmin && !(await hasAdmin(db))) {
    const email = config.firstAdmin.email.toLowerCase();
    const [taken] = await db.select({ role: users.role }).from(users).where(eq(users.email, email)).limit(1);
    if (taken) {
      result.notices.push(`ADMIN_EMAIL ${email} already belongs to a ${taken.role} account, which is left as it is; no admin was created.`);
    } else {
      await createUser(db, { email, password: config.firstAdmin.password, role: 'admin', firstname: email.split('@')[0]!, lastname: '' });
      result.adminCreated = email;
      log(`Created the first admin ${email} (from ADMIN_EMAIL).`);
    }
  }

  if (!(await hasAdmin(db))) result.notices.push(...FIRST_ADMIN_HINT);
  if (config.production && !config.demo) {
    const demo = await db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.email, DEMO_LOGINS.map((l) => l.email)));
    if (demo.length) {
      result.notices.push(`Warning: demo accounts with the published demo password exist in this database (${demo.map((d) => d.email).join(', ')}); delete them.`);
    }
  }
  return result;
}
