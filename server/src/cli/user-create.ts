import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config';
import { eq } from 'drizzle-orm';
import { closeDb, connectDb, openDb, transaction, type Db } from '../db/client';
import { users } from '../db/schema';
import { hashPassword } from '../auth/password';
import { writeAudit } from '../audit/service';
import { startFailure } from '../lib/errors';
import { isUniqueViolation } from '../db/errors';
import { createUser } from '../auth/service';
import { OPERATOR_ROLES, USER_CREATE_USAGE, operatorCredentials } from '../auth/operator';

/**
 * npm run user:create -- --email a@b.c --password secret123 --role admin [--firstname A --lastname B]
 * npm run user:create -- --email a@b.c --password 'new secret' --reset-password   (an existing account)
 */
async function main(): Promise<void> {
  const values = readArgs();
  if (values.help) {
    console.log(`Usage: ${USER_CREATE_USAGE}\n\n${USER_CREATE_OPTIONS}`);
    return;
  }
  const input = operatorCredentials({ email: '--email', password: '--password' })
    .extend({ role: z.enum(OPERATOR_ROLES), firstname: z.string().optional(), lastname: z.string().optional() })
    .safeParse(values);
  if (!input.success) {
    console.error(input.error.issues.map((i) => i.message).join('\n'));
    console.error(`Usage: ${USER_CREATE_USAGE}`);
    process.exit(2);
  }
  const config = loadConfig();
  const db = config.databaseUrl ? await connectDb(config.databaseUrl) : openDb(path.join(config.dataDir, 'blast.db'));
  try {
    const { email, password, role } = input.data;
    if (values['reset-password']) {
      // The way back in for an operator locked out of the only admin account: the console resets the
      // passwords of members and staff only. The new hash ends every session of the account.
      const reset = await resetPassword(db, email, password);
      if (reset) console.log(`New password set for ${reset.role} ${reset.email} (id ${reset.id}); its sessions have ended.`);
      else {
        console.error(`No account has the email ${email}.`);
        process.exitCode = 1;
      }
      return;
    }
    const user = await createUser(db, {
      email,
      password,
      role,
      firstname: input.data.firstname ?? email.split('@')[0]!,
      lastname: input.data.lastname ?? '',
    });
    console.log(`Created ${user.role} ${user.email} (id ${user.id})`);
  } catch (err) {
    const msg = isUniqueViolation(err, 'users', 'email') ? 'That email is already registered.' : String(err);
    console.error(msg);
    process.exitCode = 1;
  } finally {
    await closeDb(db);
  }
}

/** The one place the command's arguments are read; an unknown or malformed option prints the usage. */
function readArgs() {
  try {
    return parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string', default: 'member' },
        firstname: { type: 'string' },
        lastname: { type: 'string' },
        'reset-password': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    console.error(`Usage: ${USER_CREATE_USAGE}`);
    process.exit(2);
  }
}

const USER_CREATE_OPTIONS = [
  'Creates an operator account in the database of DATA_DIR (or DATABASE_URL).',
  '  --email EMAIL          the account\'s sign-in email',
  '  --password PASSWORD    at least 8 characters',
  '  --role ROLE            admin, dev, staff or member (default member)',
  '  --firstname NAME       --lastname NAME  (default: the email\'s name part)',
  '  --reset-password       set a new password on the existing account with this email instead',
  '  --help                 this text',
].join('\n');

/** Sets a new password on the account with this email (any case), audited; null when there is none. */
async function resetPassword(db: Db, email: string, password: string) {
  const [row] = await db.select({ id: users.id, email: users.email, role: users.role }).from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!row) return null;
  const passwordHash = await hashPassword(password);
  await transaction(db, async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, row.id));
    await writeAudit(tx, null, row.id, 'user.password', { via: 'user:create --reset-password' });
  });
  return row;
}

main().catch((err: unknown) => {
  console.error(startFailure(err));
  process.exit(1);
});
