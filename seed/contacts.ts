import type { Db } from '../server/src/db/client';
import { messageTemplates, phoneNumbers, proxies } from '../server/src/db/schema';
import { simNumbers, simSeedFromEnv } from '../server/src/gateway/simulator/network';
import { optOut } from '../server/src/phonenumbers/optout';
import { sanitizeCaption } from '../server/src/templates/sanitize';
import { htmlToWhatsapp } from '../server/src/templates/text-wa';
import { demoSeeders } from './registry';

/**
 * Demo receivers, proxies and templates. The numbers are registered numbers of the simulated
 * WhatsApp network (series 'targets'), so blasts to them are delivered.
 */
const TARGETS = 60;

const PROXIES = [
  { value: 'http://proxy1.demo.test:3128', status: 'active', countUse: 2 },
  { value: 'socks5://demo:rahasia123@10.10.0.2:1080', status: 'active', countUse: 1 },
  { value: '10.10.0.3:8080', status: 'active', countUse: 0 },
  { value: 'https://proxy4.demo.test:8443', status: 'nonactive', countUse: 0 },
];

const TEMPLATES = [
  {
    text: '<p>Halo <strong>{name}</strong>! 👋</p><p>Ada <em>promo akhir bulan</em> untuk nomor {phoneNumber}:</p><ul><li>Diskon 20% semua produk</li><li>Gratis ongkir</li></ul>',
    button: [{ id: 'promo', title: 'Lihat Promo', url: 'https://toko.demo.test/promo', type: 'url_button' }],
  },
  {
    text: '<p>Selamat pagi <strong>{name}</strong>, pesanan Anda sudah kami kirim hari ini.</p><p>Balas <strong>STOP</strong> jika tidak ingin menerima pesan lagi.</p>',
    button: [
      { id: 'terima', title: 'Terima kasih', url: 'terima', type: 'reply_button' },
      { id: 'berhenti', title: 'Berhenti', url: 'STOP', type: 'stop_button' },
    ],
  },
];

async function seedContacts(db: Db): Promise<void> {
  const numbers = simNumbers(simSeedFromEnv(), TARGETS, { salt: 'targets' });
  const base = Date.UTC(2024, 5, 1, 2, 0, 0);
  await db.insert(phoneNumbers).values(
      numbers.map((n, i) => ({
        number: n.number,
        name: n.name ?? `Pelanggan ${i + 1}`,
        // A few receivers with a history, so the list shows counts and dates.
        countSuccess: i < 8 ? 8 - i : 0,
        countFail: i < 8 && i % 3 === 0 ? 1 : 0,
        lastSent: i < 8 ? new Date(base + i * 3_600_000) : null,
      })),
  );
  const stopped = numbers[TARGETS - 1];
  if (stopped) await optOut(db, stopped.number, 'Balasan STOP');

  await db.insert(proxies).values(PROXIES).onConflictDoNothing();

  await db.insert(messageTemplates).values(
      TEMPLATES.map((t) => {
        const text = sanitizeCaption(t.text);
        return { text, textWa: htmlToWhatsapp(text), button: JSON.stringify(t.button), status: 'active' as const };
      }),
  );
}

demoSeeders.push(seedContacts);
