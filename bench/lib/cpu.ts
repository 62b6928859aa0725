import fs from 'node:fs';
import pg from 'pg';

/** Clock ticks per second of /proc's utime and stime (Linux's USER_HZ, 100 everywhere it runs). */
const HZ = 100;

/**
 * CPU time a process has used so far, in microseconds (user + system, from /proc/<pid>/stat); null
 * when /proc cannot tell (another system, or the process is gone).
 */
export function procCpuUs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / HZ;
  } catch {
    return null;
  }
}

/**
 * CPU of a database's PostgreSQL backends (the server must run on this machine): the pids are read
 * from pg_stat_activity at the start and summed again at the end, so a backend that came and went
 * in between is not counted (the app's pools keep theirs open).
 */
export class BackendCpu {
  private start = new Map<number, number>();

  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
    private readonly applicationName: string | null,
  ) {}

  /** The backends of `url`'s database, or only those whose application_name is `applicationName` (a shared database). */
  static async open(url: string, applicationName: string | null = null): Promise<BackendCpu> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new BackendCpu(client, new URL(url).pathname.slice(1), applicationName);
  }

  private async pids(): Promise<number[]> {
    const res = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND ($2::text IS NULL OR application_name = $2)',
      [this.database, this.applicationName],
    );
    return res.rows.map((r) => r.pid);
  }

  async mark(): Promise<void> {
    this.start = new Map();
    for (const pid of await this.pids()) {
      const us = procCpuUs(pid);
      if (us !== null) this.start.set(pid, us);
    }
  }

  /** Microseconds the backends used since mark(); null when none could be read (a remote server). */
  async used(): Promise<number | null> {
    let total = 0;
    let read = 0;
    for (const [pid, before] of this.start) {
      const us = procCpuUs(pid);
      if (us === null) continue;
      total += us - before;
      read += 1;
    }
    return read ? total : null;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
