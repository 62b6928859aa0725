import fs from 'node:fs';

/**
 * A field of a process's /proc status in bytes (Linux): `VmRSS` its resident set now, `VmHWM` the
 * peak so far. Null when /proc cannot tell (another system, or the process is gone).
 */
export function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
