/**
 * An opt-out's stored reason (server/src/engine/optout.ts and phonenumbers/optout-list.ts write them in
 * Indonesian) in the screen's language; a reason the console does not know is shown as stored.
 */
export function optOutReasonText(reason: string, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (reason === 'Tombol Berhenti') return t('phonenumber.optout.reasons.button');
  if (reason === 'Ditambahkan manual') return t('phonenumber.optout.reasons.manual');
  const reply = /^Balasan (.+)$/.exec(reason);
  if (reply) return t('phonenumber.optout.reasons.reply', { words: reply[1] });
  return reason;
}

