import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { defaultCountry, getSettings, settingsView, SettingsUpdate, updateSettings } from './service';

export function registerSettingsRoutes(api: Api, ctx: AppContext): void {
  /** What the console needs before sign-in: the support link and whether the simulator runs. */
  api.get('/config', async (_req, res) => {
    res.json({ telegramUrl: ctx.config.telegramUrl, gateway: ctx.config.gateway, demo: ctx.config.demo, defaultCountry: await defaultCountry(ctx.db) });
  });

  api.get('/admin/setting/get', async (_req, res) => {
    res.json({ setting: settingsView(await getSettings(ctx.db)) });
  });

  api.put('/admin/setting/update', async (req, res) => {
    const input = SettingsUpdate.parse(req.body ?? {});
    const row = await updateSettings(ctx.db, currentUser(req).id, input);
    ctx.realtime.toAdmin('settings', settingsView(row));
    res.json({ setting: settingsView(row), msg: 'Pengaturan berhasil disimpan.' });
  });
}
