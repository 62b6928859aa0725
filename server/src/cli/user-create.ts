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
import { resetTwoFactorByEmail } from '../auth/twofactor';

/**
 * npm run user:create -- --email a@b.c --password secret123 --role admin [--firstname A --lastname B]
 * npm run user:create -- --email a@b.c --password 'new secret' --reset-password   (an existing account)
 * npm run user:create -- --email a@b.c --reset-2fa   (turns off the account's two-factor sign-in)
 */
async function main(): Promise<void> {
  const values = readArgs();
  if (values.help) {
    console.log(`Usage: ${USER_CREATE_USAGE}\n\n${USER_CREATE_OPTIONS}`);
    return;
  }
  if (values['reset-2fa']) return resetTwoFactorCommand(values.email);
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
        'reset-2fa': { type: 'boolean', default: false },
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
  '  --reset-2fa            turn off the two-factor sign-in of the account with this email (no --password)',
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

/**
 * --reset-2fa: the way back in for someone who lost their authenticator and recovery codes. Two-factor is
 * turned off (audited), the account's sessions end; its next sign-in asks for the password only, or sends
 * it to set up again when REQUIRE_2FA names its role.
 */
async function resetTwoFactorCommand(emailArg: string | undefined): Promise<void> {
  const email = z.string().trim().email('--email must be an email address').safeParse(emailArg);
  if (!email.success) {
    console.error(email.error.issues.map((i) => i.message).join('\n'));
    console.error(`Usage: ${USER_CREATE_USAGE}`);
    process.exit(2);
  }
  const config = loadConfig();
  const db = config.databaseUrl ? await connectDb(config.databaseUrl) : openDb(path.join(config.dataDir, 'blast.db'));
  try {
    const row = await resetTwoFactorByEmail(db, email.data);
    if (!row) {
      console.error(`No account has the email ${email.data}.`);
      process.exitCode = 1;
      return;
    }
    console.log(`Two-factor sign-in removed for ${row.role} ${row.email} (id ${row.id}); its sessions have ended.`);
  } finally {
    await closeDb(db);
  }
}

main().catch((err: unknown) => {
  console.error(startFailure(err));
  process.exit(1);
});
