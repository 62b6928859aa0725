/**
 * Upper bounds of every amount, in whole rupiah. They keep every balance and sum far below 2^53, so
 * a figure sent as a JSON number is exact; sums are still computed by SQLite in 64-bit integers.
 */
export const MAX_FEE = 1_000_000; // per delivered message: member fee, level fee, settings price
export const MAX_BONUS = 1_000_000_000;
export const MAX_WITHDRAW = 1_000_000_000;
/** No balance may pass this (Rp 1 kuadriliun), a thousandth of the 2^53 a JSON number holds exactly. */
export const MAX_BALANCE = 1_000_000_000_000_000;

export const rupiah = (n: number) => `Rp ${n.toLocaleString('id-ID')}`;
export const tooLarge = (label: string, max: number) => `${label} paling besar ${rupiah(max)}.`;
