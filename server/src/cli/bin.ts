/**
 * The single executable's entry (and dist/server/cli.js for an install run with npm): one file for every
 * job. No argument serves, as `npm start` does; the other commands are listed by `--help`. Off the main
 * thread it is the phone-number import's worker (server/src/db/sqlite/import.ts starts the bundle again).
 */
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { appVersion } from '../lib/build-info';

const NAME = 'blast-console';

export const HELP = `${NAME} ${appVersion()}: the web console and server of the WhatsApp blast service.

Usage:
  ${NAME}                     serve the console (http://localhost:PORT)
  ${NAME} user:create …       create an operator account (${NAME} user:create --help)
  ${NAME} backup FILE         copy the SQLite database, its secrets and uploads to FILE while the server runs
  ${NAME} restore FILE        put a backup back into an empty DATA_DIR, or one whose server is stopped
  ${NAME} migrate             apply the database migrations and name each one applied
  ${NAME} --version           print the version and the commit it was built from
  ${NAME} --help              this text

Variables (the full list is in docs/operations.md):
  PORT=3000  HOST=0.0.0.0      where the console listens
  DATA_DIR=./data              the SQLite database, secrets and uploads (private to the server's user)
  DATABASE_URL=postgres://…    PostgreSQL instead of SQLite (several nodes); REDIS_URL, REDIS_PREFIX with it
  NODE_ENV=production          no demo data; the first admin from ADMIN_EMAIL and ADMIN_PASSWORD
  DEMO=true|false              the demo's accounts and data (default: on unless production)
  JWT_SECRET, SECRET_KEY       session and at-rest secrets (default: files in DATA_DIR)
  GATEWAY=simulator|cloud-api  where messages go; CLOUD_API_* and PUBLIC_URL for the Cloud API
  LOG_LEVEL, LOG_FORMAT        info|debug|…, text|json
  XDG_CACHE_HOME               where the executable keeps its SQLite addon (default DATA_DIR/native)
`;

const dataDir = () => path.resolve(process.env.DATA_DIR || './data');

async function run(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case undefined:
      await import('../main');
      return;
    case '--version':
    case '-v':
    case 'version':
      console.log(appVersion());
      return;
    case '--help':
    case '-h':
    case 'help':
      console.log(HELP);
      return;
    case 'user:create':
      // The command reads its own options from process.argv, as when it runs as its own script.
      process.argv.splice(2, 1);
      await import('./user-create');
      return;
    case 'backup':
    case 'restore':
      return backupOrRestore(command, rest);
    case 'migrate':
      return migrate();
    default:
      console.error(`Unknown command "${command}".\n\n${HELP}`);
      process.exitCode = 2;
  }
}

async function backupOrRestore(command: 'backup' | 'restore', args: string[]): Promise<void> {
  const { backupDatabase, CommandError, pgDumpAdvice, restoreDatabase } = await import('../db/sqlite/backup');
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    console.error(`Usage: ${NAME} ${command} FILE`);
    process.exitCode = 2;
    return;
  }
  const file = args[0]!;
  if (process.env.DATABASE_URL) {
    console.error(pgDumpAdvice(file));
    process.exitCode = 1;
    return;
  }
  try {
    if (command === 'backup') {
      const r = await backupDatabase(dataDir(), file);
      console.log(`Backed up ${path.join(dataDir(), 'blast.db')} to ${r.file} (${r.bytes} bytes, with ${r.secrets.join(' and ') || 'no secret files'} and ${r.uploads} uploaded file(s)).`);
      if (process.env.SECRET_KEY || process.env.JWT_SECRET) console.log('SECRET_KEY/JWT_SECRET come from the environment: keep them with the backup.');
    } else {
      const r = restoreDatabase(dataDir(), file);
      console.log(`Restored ${r.database} from ${path.resolve(file)}${r.version ? ` (a backup of ${r.version})` : ''}, with ${r.secrets.join(' and ') || 'no secret files'} and ${r.uploads} uploaded file(s).`);
      for (const f of r.keptAside) console.log(`  kept the previous ${path.basename(f).replace(/\.before-restore-.*$/, '')} as ${f}`);
      console.log('Start the server: it applies any newer migrations and logs them.');
    }
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}

async function migrate(): Promise<void> {
  // The command's own lines say what was applied; the store's log lines would repeat them.
  process.env.LOG_LEVEL ||= 'warn';
  const [{ loadConfig }, { closeDb, connectDb, openDb }, { appliedWhenOpened, readMigrations }] = await Promise.all([
    import('../config'),
    import('../db/client'),
    import('../db/migrations'),
  ]);
  const config = loadConfig();
  const db = config.databaseUrl ? await connectDb(config.databaseUrl) : openDb(path.join(config.dataDir, 'blast.db'));
  try {
    const applied = appliedWhenOpened(db);
    for (const tag of applied) console.log(`Applied ${tag}`);
    const latest = readMigrations(config.databaseUrl ? 'pg' : 'sqlite').at(-1)?.tag ?? 'none';
    console.log(applied.length ? `${applied.length} migration(s) applied; the database is at ${latest}.` : `No migration to apply: the database is at ${latest}.`);
  } finally {
    await closeDb(db);
  }
}

if (isMainThread) {
  run(process.argv.slice(2)).catch(async (err: unknown) => {
    const { startFailure } = await import('../lib/errors');
    console.error(startFailure(err));
    process.exit(1);
  });
} else {
  void import('../db/sqlite/import-worker');
}
