import { describe, expect, it } from 'vitest';
import { accountData, accountRow } from '../../server/src/engine/view';
import { accountEventData } from '../../server/src/whatsapp/view';
import type { RawAccount } from '../../server/src/engine/store';

const raw: RawAccount = {
  id: 7,
  device_id: 'id-7',
  clientid: 'client-7',
  pushname: 'Akun 7',
  phonenumber: '6281200000007',
  server: 'c.us',
  serialized: '6281200000007@c.us',
  proxy_id: null,
  user_id: 3,
  state: 'connected',
  status: 'sending',
  interval: null,
  own_interval: 0,
  count_success: 12,
  count_fail: 2,
  income: 600,
  suspended: 0,
  suspended_count: 1,
  reconnect_count: 4,
  gateway: 'simulator',
  cloud_phone_number_id: null,
  cloud_waba_id: null,
  cloud_token: null,
  quality_rating: null,
  messaging_tier: null,
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_500_000,
};

describe('account event data built from the raw row', () => {
  it('equals the accounts area event data of the same row, key order included', () => {
    for (const row of [raw, { ...raw, suspended: 1, status: 'idle' as const, gateway: 'cloud-api' as const, updated_at: null }]) {
      for (const extra of [{}, { progressing: true, progress: 12.5, number: '6281', status: 'overridden' }]) {
        const direct = accountData(row, extra);
        const viaRow = accountEventData(accountRow(row), extra);
        expect(direct).toEqual(viaRow);
        expect(Object.keys(direct)).toEqual(Object.keys(viaRow));
        expect(JSON.stringify(direct)).toBe(JSON.stringify(viaRow));
      }
    }
  });
});
