import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorCodeFor, fieldLabelKey } from '../../common/errors';
import { errorBody } from '../../server/src/lib/errors';
import { watchErrorCodes } from '../helpers';
import { HOLE, scanErrorMessages } from './error-answers-scan';

/**
 * Messages only known at run time, each with the reason its texts are checked elsewhere: the scan
 * reads them where they are made (the zod schemas, the `{ ok: false, message }` results, the upload
 * options), so these places only pass them on.
 */
const PASSED_ON: Record<string, string> = {
  'server/src/lib/errors.ts err.msg': 'the error middleware answers the thrown message',
  'server/src/lib/errors.ts Object.values(errors)[0]': 'the first zod message, each read in its schema',
  'server/src/auth/service.ts Object.values(errors)[0]': 'the first field error, each read where it is set',
  'server/src/generators/service.ts Object.values(errors)[0]': 'the first field error, each read where it is set',
  'server/src/cluster/bus.ts message.error?.msg': "another node's HttpError, read where it is thrown",
  'server/src/db/sqlite/import.ts m.msg': "the import worker's HttpError, read where it is thrown",
  'server/src/lib/upload.ts options.typeMsg': 'the upload options, read where they are given',
  'server/src/lib/upload.ts options.tooLargeMsg': 'the upload options, read where they are given',
  'server/src/phonenumbers/service.ts phone.message': "common/phone.ts's failure messages",
  'server/src/whatsapp/linking.ts phone.message': "common/phone.ts's failure messages",
  'server/src/phonenumbers/optout-list.ts phone.message': "common/phone.ts's failure messages",
  'server/src/proxies/service.ts r.message': "proxies/value.ts's failure messages",
  'server/src/templates/cloud.ts parsed.error.issues[0]?.message': 'the zod messages of the Cloud API template fields',
  'server/src/engine/jobs/access.ts spec.notFound': "the job areas' specs, read where they are given",
  'server/src/engine/jobs/control.ts spec.finishedMessage': "the job areas' specs, read where they are given",
  'server/src/validators/file.ts bad.msg': "lib/rows.ts's CSV quote refusals, read where they are made",
};

const sample = (message: string) => message.split(HOLE).join('Xy 1');

describe('every error answer of the server carries a stable code', () => {
  const sites = scanErrorMessages();

  it('finds the messages where they are made (the scan itself works)', () => {
    const texts = new Set(sites.flatMap((s) => s.messages));
    for (const known of [
      'Bonus can only be sent to a member.',
      'Sambungan terputus, silahkan sambungkan ulang!',
      'Batas harian nomor ini dari Meta (tier) sudah tercapai. Blast dapat dilanjutkan setelah 24 jam.',
      'Saldo tidak mencukupi untuk permintaan penarikan ini.',
      'Token akses tidak valid atau kedaluwarsa',
      `Status ${HOLE} tidak dapat diubah menjadi ${HOLE}.`,
      'Generator sudah selesai',
      'Password must be at least 8 characters.',
      'Nomor telepon tidak valid untuk negaranya (periksa kode negara dan jumlah digit).',
    ]) {
      expect(texts.has(known), known).toBe(true);
    }
    expect(sites.length).toBeGreaterThan(250);
  });

  it('has a catalogued code for every message the server answers with (or passes its own code)', () => {
    const missing = sites
      .filter((s) => !s.explicitCode)
      .flatMap((s) => s.messages.filter((m) => !errorCodeFor(sample(m))).map((m) => `${s.file}:${s.line} ${JSON.stringify(m.split(HOLE).join('{…}'))}`));
    expect(missing).toEqual([]);
  });

  it('has a translation key for every field label the server writes into a message', () => {
    // Request field names of the simulator and the withdraw update read the same in every language.
    const fieldNames = new Set(['deviceId', 'id']);
    const untranslated = sites.flatMap((s) =>
      s.messages
        .map((m) => errorCodeFor(sample(m))?.params.label)
        // A label only known at run time (`tooLarge(label, max)`) shows as the sample; those call sites pass listed labels.
        .filter((label): label is string => label !== undefined && !label.includes('Xy 1') && !fieldNames.has(label) && !fieldLabelKey(label))
        .map((label) => `${s.file}:${s.line} ${label}`),
    );
    expect(untranslated).toEqual([]);
    expect(sites.some((s) => s.messages.some((m) => errorCodeFor(sample(m))?.params.label === 'Syarat Minimal Blast'))).toBe(true);
  });

  it('follows every message to a text, except the places that pass on a message made elsewhere', () => {
    const unknown = sites
      .filter((s) => s.dynamic && !s.explicitCode)
      .flatMap((s) => s.dynamic!.split(', ').map((d) => `${s.file} ${d}`))
      .filter((key) => !(key in PASSED_ON));
    expect(unknown).toEqual([]);
  });
});

describe("the API tests' check of error answers", () => {
  it('records an error answer without a code, not one with a code nor a success', async () => {
    const app = express();
    const uncoded = watchErrorCodes(app);
    app.get('/plain', (_req, res) => void res.status(409).json({ msg: 'Pesan tanpa kode' }));
    app.get('/coded', (_req, res) => void res.status(403).json(errorBody('Sambungan terputus, silahkan sambungkan ulang!')));
    app.get('/ok', (_req, res) => void res.json({ msg: 'Tersimpan' }));
    expect((await request(app).get('/coded')).body).toEqual({ msg: 'Sambungan terputus, silahkan sambungkan ulang!', code: 'disconnected' });
    await request(app).get('/ok').expect(200);
    expect(uncoded).toEqual([]);
    await request(app).get('/plain?x=1').expect(409);
    expect(uncoded).toEqual(['GET /plain → 409 {"msg":"Pesan tanpa kode"}']);
  });
});
