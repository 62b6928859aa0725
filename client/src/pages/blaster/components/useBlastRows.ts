import { useEffect, type Dispatch, type SetStateAction } from 'react';
import { useLive } from '../../../providers/live';
import { applyBlastEvent, BLAST_EVENTS, isForRow, tick, unflash, type BlastRowFields } from './blastRow';

/** Counter highlight and wait countdown steps, as the spec fixes them. */
const HIGHLIGHT_MS = 1000;
const COUNTDOWN_MS = 1000;

/**
 * Applies the blast events of a live channel ('{userId}' for a member, 'admin' for admin and dev)
 * to the rows of a list: status and flags by event, counters from any event with a 1 s highlight
 * when they change, and the 'Waiting (Ns)...' countdown every second.
 */
export function useBlastRows<T extends BlastRowFields>(channel: string | null | undefined, rows: T[], setRows: Dispatch<SetStateAction<T[]>>): void {
  useLive(channel, (msg) => {
    if (!BLAST_EVENTS.has(msg.event)) return;
    const now = Date.now();
    setRows((rs) => {
      let changed = false;
      const next = rs.map((r) => {
        if (!isForRow(r, msg.data)) return r;
        changed = true;
        return applyBlastEvent(r, msg, now);
      });
      return changed ? next : rs;
    });
  });

  // Switch each highlight off 1 s after its counter last changed.
  const nextUnflash = rows.reduce<number | null>((soonest, r) => {
    if (!(r.successUpdated || r.failUpdated)) return soonest;
    const at = (r.flashAt ?? 0) + HIGHLIGHT_MS;
    return soonest === null || at < soonest ? at : soonest;
  }, null);
  useEffect(() => {
    if (nextUnflash === null) return;
    const t = window.setTimeout(() => setRows((rs) => rs.map((r) => unflash(r, Date.now(), HIGHLIGHT_MS))), Math.max(0, nextUnflash - Date.now()));
    return () => window.clearTimeout(t);
  }, [nextUnflash, setRows]);

  const counting = rows.some((r) => r.waiting && (r.waitTime ?? 0) > 0);
  useEffect(() => {
    if (!counting) return;
    const t = window.setInterval(() => setRows((rs) => rs.map((r) => tick(r))), COUNTDOWN_MS);
    return () => window.clearInterval(t);
  }, [counting, setRows]);
}
