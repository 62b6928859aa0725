import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '../../client/src/lib/http';
import { errorFromBody, serverText, skipReasonText } from '../../client/src/lib/serverError';
import { withoutReasonCode } from '../../client/src/lib/skipReason';
import { i18nProvider, i18n, loadLocaleAreas } from '../../client/src/providers/i18n';
import { withReasonCode } from '../../common/errors';

beforeAll(() => loadLocaleAreas(['errors']));

afterEach(async () => {
  await i18nProvider.changeLocale('id');
});

describe('an error answer to a call', () => {
  it("brings the catalogue and the errors' texts with it, in the chosen language", async () => {
    const answer = { msg: 'Bonus can only be sent to a member.', code: 'bonus_member_only' };
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(answer), { status: 422 }));
    try {
      await expect(api('/admin/bonus', { method: 'POST', anonymous: true })).rejects.toMatchObject({ message: 'Bonus hanya dapat dikirim kepada member.', statusCode: 422 });
      await i18nProvider.changeLocale('en');
      await expect(api('/admin/bonus', { method: 'POST', anonymous: true })).rejects.toMatchObject({ message: 'Bonus can only be sent to a member.' });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("the client's error path", () => {
  it("shows the locale's text for a known code, in Indonesian by default", () => {
    const err = errorFromBody({ msg: 'Bonus can only be sent to a member.', code: 'bonus_member_only' }, 422, 'x');
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Bonus hanya dapat dikirim kepada member.');
    expect(err.code).toBe('bonus_member_only');
    expect(err.statusCode).toBe(422);
  });

  it('translates field errors and label messages, and follows the chosen language', async () => {
    const body = {
      msg: 'Password must be at least 8 characters.',
      code: 'password_too_short',
      errors: { password: 'Password must be at least 8 characters.', price: 'Price must be a whole number.', other: 'Pesan lain' },
    };
    const id = errorFromBody(body, 422, 'x');
    expect(id.message).toBe('Password minimal 8 karakter.');
    expect(id.errors).toEqual({ password: 'Password minimal 8 karakter.', price: 'Harga per Blast harus bilangan bulat.', other: 'Pesan lain' });
    await i18nProvider.changeLocale('en');
    const en = errorFromBody(body, 422, 'x');
    expect(en.message).toBe('Password must be at least 8 characters.');
    expect(en.errors?.price).toBe('Price per Blast must be a whole number.');
  });

  it("shows the field labels inside pattern messages in the active language", async () => {
    const body = {
      msg: 'Syarat Minimal Blast is required.',
      code: 'field_required',
      errors: {
        requirement_blast: 'Syarat Minimal Blast is required.',
        blast_fee: 'Harga per Blast paling besar Rp 1.000.000.',
        interval_min: 'Interval Min paling lama 86400 detik',
        pairing: 'Kode pairing wajib diisi',
        recipient_cooldown: 'Recipient cooldown must be 0 or more.',
        other: 'Kolom Lain is required.',
      },
    };
    const id = errorFromBody(body, 422, 'x');
    expect(id.message).toBe('Syarat Minimal Blast wajib diisi.');
    expect(id.errors).toMatchObject({ blast_fee: 'Harga per Blast paling besar Rp 1.000.000.', pairing: 'Kode pairing wajib diisi', recipient_cooldown: 'Jeda Penerima harus 0 atau lebih.' });
    await i18nProvider.changeLocale('en');
    const en = errorFromBody(body, 422, 'x');
    expect(en.message).toBe('Minimum Blasts is required.');
    expect(en.errors).toEqual({
      requirement_blast: 'Minimum Blasts is required.',
      blast_fee: 'Price per Blast must be at most Rp 1.000.000.',
      interval_min: 'Interval Min must be at most 86400 seconds',
      pairing: 'Pairing code is required',
      recipient_cooldown: 'Recipient Cooldown must be 0 or more.',
      // A label the catalogue does not know stays as the server wrote it.
      other: 'Kolom Lain is required.',
    });
  });

  it('matches a message without a code, keeps unknown messages and the spec numeric code', () => {
    expect(errorFromBody({ msg: 'User not found' }, 404, 'x').message).toBe('Pengguna tidak ditemukan');
    expect(errorFromBody({ msg: 'Saldo tidak mencukupi.' }, 422, 'x').message).toBe('Saldo tidak mencukupi.');
    const bank = errorFromBody({ msg: 'Rekening bank belum diisi.', code: 1 }, 422, 'x');
    expect(bank.code).toBe(1);
    expect(bank.message).toBe('Rekening bank belum diisi.');
    expect(errorFromBody(undefined, 500, 'Error fetching user').message).toBe('Error fetching user');
  });

  it('shows a failed sign-in in the active language', async () => {
    const body = { msg: 'Invalid email or password', code: 'invalid_credentials' };
    expect(errorFromBody(body, 401, 'Error signing in').message).toBe('Email atau kata sandi salah');
    await i18nProvider.changeLocale('en');
    expect(errorFromBody(body, 401, 'Error signing in').message).toBe('Invalid email or password');
  });

  it("keeps the spec's own texts on Indonesian screens", () => {
    expect(errorFromBody({ msg: 'Internal server error', code: 'internal' }, 500, 'x').message).toBe('Internal server error');
    expect(errorFromBody({ msg: 'Passwords do not match.' }, 422, 'x').message).toBe('Passwords do not match.');
  });

  it('shows import skip reasons in the active language, keeping the stored reason for the downloads', async () => {
    const t = (key: string, options: Record<string, unknown>) => i18n.t(key, options);
    const rows = ['nomor tidak valid', 'already in the list', 'repeated in the file', 'opted out', 'invalid proxy', 'Alasan lain'].map((reason) =>
      withReasonCode({ number: '1', reason }),
    );
    expect(rows[0]).toEqual({ number: '1', reason: 'nomor tidak valid', reasonCode: 'skip_invalid_number' });
    expect(rows[5]).toEqual({ number: '1', reason: 'Alasan lain' });
    expect(rows.map((r) => skipReasonText(r, t))).toEqual([
      'nomor tidak valid',
      'sudah ada di daftar',
      'berulang di dalam file',
      'berhenti berlangganan',
      'proxy tidak valid',
      'Alasan lain',
    ]);
    await i18nProvider.changeLocale('en');
    expect(rows.map((r) => skipReasonText(r, t))).toEqual(['invalid number', 'already in the list', 'repeated in the file', 'opted out', 'invalid proxy', 'Alasan lain']);
    expect(withoutReasonCode(rows[0]!)).toEqual({ number: '1', reason: 'nomor tidak valid' });
  });

  it("shows the spec's Indonesian server messages word for word in Indonesian and in English on English screens", async () => {
    const bodies = [
      { msg: 'Sambungan terputus, silahkan sambungkan ulang!', code: 2 },
      { msg: 'Batas harian nomor ini dari Meta (tier) sudah tercapai. Blast dapat dilanjutkan setelah 24 jam.', code: 'cloud_tier_reached' },
      { msg: 'Status accepted tidak dapat diubah menjadi rejected.', code: 'withdraw_status_change' },
      { msg: 'Target Nomor Awal: Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).', code: 'start_number_reason' },
      { msg: 'Token akses tidak valid atau kedaluwarsa', errors: { accessToken: 'Token akses tidak valid atau kedaluwarsa' } },
    ];
    expect(bodies.map((b) => errorFromBody(b, 422, 'x').message)).toEqual(bodies.map((b) => b.msg));
    await i18nProvider.changeLocale('en');
    const en = bodies.map((b) => errorFromBody(b, 422, 'x'));
    expect(en.map((e) => e.message)).toEqual([
      'Connection lost, please reconnect!',
      expect.stringMatching(/Meta's daily limit/),
      'Status accepted cannot be changed to rejected.',
      'Start Number: The phone number is not valid for its country (check the country code and the number of digits).',
      'The access token is invalid or expired',
    ]);
    expect(en[4]!.errors).toEqual({ accessToken: 'The access token is invalid or expired' });
  });

  it('shows a success message the server gives a code, such as a withdraw decision, in the active language', async () => {
    const t = (key: string, options: Record<string, unknown>) => i18n.t(key, options);
    expect(serverText('Permintaan withdraw Diterima', 'withdraw_accepted', t)).toBe('Permintaan withdraw Diterima');
    await i18nProvider.changeLocale('en');
    expect(serverText('Permintaan withdraw Ditolak', 'withdraw_rejected', t)).toBe('Withdrawal request rejected');
  });
});
