import { describe, expect, it } from 'vitest';
import { optOutReason } from '../../server/src/engine/optout';

describe('replies that opt a number out', () => {
  it('match the stop words in any case, with punctuation, emoji or spaces around them', () => {
    for (const text of ['STOP', ' stop ', 'STOP.', 'stop!', 'Stop!!!', '"stop"', 'Berhenti.', 'berhenti 🙏', 'BERHENTI\n', 'Unsubscribe.']) {
      expect(optOutReason(text, null), text).toMatch(/^Balasan (STOP|BERHENTI|UNSUBSCRIBE)$/);
    }
    expect(optOutReason('Berhenti berlangganan', null)).toBe('Balasan BERHENTI BERLANGGANAN');
    expect(optOutReason('berhenti  -  berlangganan!', null)).toBe('Balasan BERHENTI BERLANGGANAN');
    expect(optOutReason('Ｓｔｏｐ', null)).toBe('Balasan STOP');
  });

  it('leave other messages alone, even ones that mention the word', () => {
    for (const text of ['', 'Terima kasih', 'jangan stop dulu', 'stop1', 'stopp', 'please stop sending me this', 'Berhentilah']) {
      expect(optOutReason(text, null), text).toBeNull();
    }
  });

  it('a press of the stop button opts out whatever its text', () => {
    expect(optOutReason('Terima kasih', 'stop_button:2:berhenti')).toBe('Tombol Berhenti');
  });
});
