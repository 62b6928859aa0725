import { beforeAll, describe, expect, it } from 'vitest';
import { i18nProvider, loadConsoleLocales } from '../../providers/i18n';
import { applyJobLive, jobStatusLabel, type JobRow } from './jobRow';

beforeAll(() => loadConsoleLocales());

/** The label as the Indonesian screen shows it. */
const shown = (r: JobRow) => {
  const label = jobStatusLabel(r);
  return i18nProvider.translate(label.key, label.values ?? {});
};

const row = (over: Partial<JobRow> = {}): JobRow => ({
  id: 7,
  job: 'generator',
  user_id: 3,
  whatsapp_id: 2,
  b_insert: 0,
  interval_min: 1,
  interval_max: 2,
  total: 10,
  checked: 0,
  count_success: 0,
  count_fail: 0,
  progress: 0,
  status: 'idle',
  state: null,
  start_number: '6281300000000',
  end_number: '6281300000009',
  current_number: null,
  Whatsapp: { id: 2, pushname: 'Kantor', phonenumber: '6281', clientid: 'id-1-1', state: 'connected' },
  ...over,
});

describe('generator and validator rows from live events', () => {
  it('applies absolute values of job events matched by job and id, never account events by id', () => {
    const rows = [row(), row({ id: 8 })];
    const after = applyJobLive(rows, 'generator', { event: 'progressing', data: { id: 7, job: 'generator', checked: 3, count_success: 2, count_fail: 1, progress: 30, current_number: '6281300000002', status: 'sending' } });
    expect(after[0]).toMatchObject({ checked: 3, count_success: 2, count_fail: 1, progress: 30, current_number: '6281300000002', progressing: true, successUpdated: true, failUpdated: true, liveSeq: 1 });
    expect(after[1]).toBe(rows[1]);
    expect(applyJobLive(rows, 'validator', { event: 'progressing', data: { id: 7, job: 'generator', checked: 3 } })).toBe(rows);
    expect(applyJobLive(rows, 'generator', { event: 'count_success', data: { id: 7, count_success: 99, deviceId: 'x' } })).toBe(rows);
  });

  it('finished sets progress 100 and idle; waiting shows the seconds; errors show progress 100 as the spec says', () => {
    const [waiting] = applyJobLive([row({ status: 'sending' })], 'generator', { event: 'waiting', data: { id: 7, job: 'generator', waitTime: 4, status: 'sending' } });
    expect(shown(waiting!)).toBe('Waiting (4s)...');
    const [done] = applyJobLive([waiting!], 'generator', { event: 'finished', data: { id: 7, job: 'generator', status: 'idle', state: 'finished', progress: 100, checked: 10 } });
    expect(done).toMatchObject({ status: 'idle', progress: 100, waiting: false });
    expect(shown(done!)).toBe('Selesai');
    const [paused] = applyJobLive([row({ status: 'sending' })], 'generator', { event: 'error_generate', data: { id: 7, job: 'generator', status: 'idle', state: 'error', progress: 40 } });
    expect(paused).toMatchObject({ status: 'idle', progress: 100 });
    expect(shown(paused!)).toBe('Galat');
  });

  it("follows the account's connection state by client id", () => {
    const [r] = applyJobLive([row()], 'generator', { event: 'connection.update', data: { id: 2, clientid: 'id-1-1', deviceId: 'id-1-1', state: 'disconnected' } });
    expect(r!.Whatsapp!.state).toBe('disconnected');
  });
});

describe('job status labels', () => {
  it('show the spec words while running and Indonesian words at rest', () => {
    expect(shown(row({ requesting: true }))).toBe('Starting...');
    expect(shown(row({ status: 'sending', attempting: true, attempingCode: 'timeout' }))).toBe('Fail, attempting (timeout)...');
    expect(shown(row({ status: 'sending', job: 'validator' }))).toBe('Validating...');
    expect(shown(row({ status: 'sending' }))).toBe('Generating...');
    expect(shown(row({ state: 'stopped' }))).toBe('Dihentikan');
    expect(shown(row())).toBe('Siap');
  });
});
