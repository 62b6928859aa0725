import type { Db } from '../client';
import { settingsSeed } from '../../settings/service';

/**
 * Seeds the settings row while a SQLite database is being opened, before the handle is handed to
 * anyone: `openDb` stays synchronous for its callers. The statements are the ones `seedSettings` awaits.
 */
export function seedSettingsOnOpen(db: Db): void {
  for (const statement of settingsSeed(db)) statement.run();
}
