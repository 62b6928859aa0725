import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfig } from '../config';
import { closeDb, connectDb, openDb } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { createUser } from '../auth/service';
import { OPERATOR_ROLES, USER_CREATE_USAGE, operatorCredentials } from '../auth/operator';

/** npm run user:create -- --email a@b.c --password secret123 --role admin [--firstname A --lastname B] */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', default: 'member' },
      firstname: { type: 'string' },
      lastname: { type: 'string' },
    },
  });
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

void main();
