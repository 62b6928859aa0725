// SQL text only: the import worker bundles this, so it imports nothing.

/**
 * For an import's one INSERT … SELECT: the last_sent a new row takes from removed_recipients (the last
 * send to a number deleted from the list; phonenumbers/removed.ts). Used only when that table has rows,
 * so an import usually makes no look-up per row.
 */
export const REMOVED_LAST_SENT = (numberColumn: string, schema = '') => `(SELECT r.last_sent FROM ${schema}removed_recipients r WHERE r.number = ${numberColumn})`;

/** After such an insert: the numbers listed again are forgotten (a look-up per remembered number). */
export const FORGET_LISTED = (schema = '') =>
  `DELETE FROM ${schema}removed_recipients WHERE EXISTS (SELECT 1 FROM ${schema}phone_numbers p WHERE p.number = ${schema}removed_recipients.number)`;
