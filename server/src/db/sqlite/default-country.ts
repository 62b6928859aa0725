import { countryOr } from '../../../../common/phone';

/**
 * 'Kode Negara Default' for code holding only the SQLite connection: the import staging, in its worker
 * (a module of its own keeps the settings service out of the worker's bundle).
 */
export function defaultCountryOf(client: { prepare(sql: string): { get(): unknown } }): string {
  const row = client.prepare('SELECT default_country AS c FROM settings WHERE id = 1').get() as { c: string } | undefined;
  return countryOr(row?.c);
}
