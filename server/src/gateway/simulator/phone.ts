import { HttpError } from '../../lib/errors';
import type { DeviceIdentity, DeviceSnapshot } from '../types';
import { isWellFormedNumber, simNumbers } from './network';
import { DEFAULT_COUNTRY, phoneOrNull } from '../../../../common/phone';
import type { SentRecord, SimDevice, SimulatorGateway } from './simulator';

export type PhoneConnection = 'connected' | 'disconnected' | 'conflict' | 'loggedOut';

export interface SimDeviceView extends DeviceSnapshot {
  lastSent: (Omit<SentRecord, 'date'> & { date: string }) | null;
}

/** The number as the network knows it (the one normaliser, default country), else its bare digits (then refused). */
function digitsIn(number: string, country: string): string {
  return phoneOrNull(number, country) ?? number.replace(/[^0-9]/g, '');
}

/** Accepts `ABCD-EFGH`, `abcd efgh` or `ABCDEFGH`. */
function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * The phone side of the simulated network, used by the /sim page and /api/sim calls: scan a QR,
 * enter a pairing code, change a device's connection, reply as a number, delete a sent message and
 * read what a number received.
 */
export class SimPhone {
  /** `country`: the default country setting, read on each call. */
  constructor(
    private readonly sim: SimulatorGateway,
    private readonly country: () => string = () => DEFAULT_COUNTRY,
  ) {}

  private digits(number: string): string {
    return digitsIn(number, this.country());
  }

  private identityFor(phonenumber: string | undefined, pushname: string | undefined): DeviceIdentity {
    let number: string;
    if (phonenumber) {
      number = this.digits(phonenumber);
      if (!isWellFormedNumber(number)) throw new HttpError(422, 'Nomor telepon tidak valid', { errors: { phonenumber: 'Nomor telepon tidak valid' } });
    } else {
      // A phone of its own: the first registered number no device uses yet.
      const used = new Set(this.sim.allDevices().map((d) => d.identity?.phonenumber));
      const free = simNumbers(this.sim.seed, 200, { salt: 'phones' }).find((n) => !used.has(n.number));
      number = free?.number ?? `62899${String(Date.now()).slice(-8)}`;
    }
    const name = pushname?.trim() || this.sim.contact(number).pushname || `Pengguna ${number.slice(-4)}`;
    return { phonenumber: number, pushname: name, server: 'c.us', serialized: `${number}@c.us` };
  }

  scan(qr: string, phonenumber?: string, pushname?: string): DeviceSnapshot {
    const device = this.sim.deviceByQr(qr.trim());
    if (!device || device.phase !== 'qr') throw new HttpError(404, 'QR code tidak dikenal atau sudah kedaluwarsa');
    this.sim.link(device, this.identityFor(phonenumber, pushname));
    return this.sim.snapshotOf(device);
  }

  pair(code: string, phonenumber: string): DeviceSnapshot {
    const device = this.sim.deviceByCode(normaliseCode(code));
    if (!device || device.phase !== 'code' || device.login?.method !== 'code') {
      throw new HttpError(404, 'Kode pairing tidak dikenal atau sudah kedaluwarsa');
    }
    const number = this.digits(phonenumber);
    if (number !== device.login.phoneNumber) {
      throw new HttpError(422, 'Kode pairing ini untuk nomor lain', { errors: { phonenumber: 'Kode pairing ini untuk nomor lain' } });
    }
    this.sim.link(device, this.identityFor(number, undefined));
    return this.sim.snapshotOf(device);
  }

  private linkedDevice(deviceId: string): SimDevice & { identity: DeviceIdentity } {
    const device = this.sim.device(deviceId);
    if (!device) throw new HttpError(404, 'Perangkat tidak ditemukan');
    if (!device.identity) throw new HttpError(409, 'Perangkat belum ditautkan');
    return device as SimDevice & { identity: DeviceIdentity };
  }

  connection(deviceId: string, state: PhoneConnection): DeviceSnapshot {
    const device = this.linkedDevice(deviceId);
    if (device.phase === 'loggedOut' && state !== 'loggedOut') {
      throw new HttpError(409, 'Perangkat sudah keluar (logged out); tautkan ulang');
    }
    this.sim.setState(device, state);
    return this.sim.snapshotOf(device);
  }

  /** A number sends a message (or presses a button) to the account. */
  reply(from: string, deviceId: string, text: string, buttonId: string | null): { id: string } {
    const device = this.linkedDevice(deviceId);
    if (device.phase !== 'connected') throw new HttpError(409, 'Perangkat tidak terhubung');
    const sender = this.digits(from);
    if (!isWellFormedNumber(sender)) throw new HttpError(422, 'Nomor pengirim tidak valid', { errors: { from: 'Nomor pengirim tidak valid' } });
    const id = this.sim.nextMessageId();
    const now = Date.now();
    this.sim.inboxes.add(device.identity.phonenumber, { id, from: sender, text, date: now, mediaUrl: null, buttons: [], revoked: false });
    this.sim.emit({ type: 'message', deviceId, messageId: id, from: sender, text, buttonId, date: new Date(now) });
    return { id };
  }

  /** The account's owner deletes the last message the account sent, for everyone. */
  revoke(deviceId: string): { messageId: string; to: string } {
    const device = this.linkedDevice(deviceId);
    const last = device.lastSent;
    if (!last) throw new HttpError(409, 'Belum ada pesan terkirim dari perangkat ini');
    this.sim.inboxes.revoke(last.to, last.messageId);
    device.lastSent = null;
    this.sim.emit({ type: 'revoke', deviceId, messageId: last.messageId, to: last.to, date: new Date() });
    return { messageId: last.messageId, to: last.to };
  }

  inbox(number: string) {
    return {
      messages: this.sim.inboxes
        .list(this.digits(number))
        .map((m) => ({
          id: m.id,
          from: m.from,
          text: m.revoked ? '' : m.text,
          date: new Date(m.date).toISOString(),
          media: m.revoked ? null : m.mediaUrl,
          buttons: m.revoked ? [] : m.buttons,
          revoked: m.revoked,
        }))
        .reverse(),
    };
  }

  numbers(registered: boolean, limit: number) {
    return { numbers: simNumbers(this.sim.seed, limit, { registered, salt: 'numbers' }).map((n) => ({ number: n.number, name: n.name ?? '' })) };
  }

  devices(): { devices: SimDeviceView[] } {
    return {
      devices: this.sim.allDevices().map((d) => ({
        ...this.sim.snapshotOf(d),
        lastSent: d.lastSent ? { ...d.lastSent, date: new Date(d.lastSent.date).toISOString() } : null,
      })),
    };
  }
}
