import { isSupportedCountry, DEFAULT_COUNTRY } from '../../../../common/phone';
import type { Db } from '../client';
import { settingsSeed } from '../../settings/service';

/**
 * Seeds the settings row while a SQLite database is being opened, before the handle is handed to
 * anyone: `openDb` stays synchronous for its callers. The statements are the ones `seedSettings` awaits.
 */
export function seedSettingsOnOpen(db: Db): void {
  for (const statement of settingsSeed(db)) statement.run();
}

/** 'Kode Negara Default' for code holding only the SQLite connection (the import staging). */
export function defaultCountryOf(client: { prepare(sql: string): { get(): unknown } }): string {
  const row = client.prepare('SELECT default_country AS c FROM settings WHERE id = 1').get() as { c: string } | undefined;
  return row && isSupportedCountry(row.c) ? row.c : DEFAULT_COUNTRY;
}
