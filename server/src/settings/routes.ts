import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { currentUser } from '../auth/middleware';
import { defaultCountry, getSettings, settingsView, SettingsUpdate, updateSettings } from './service';
import { defaultSignupMode, signupMode } from './signup';

export function registerSettingsRoutes(api: Api, ctx: AppContext): void {
  /** What the console needs before sign-in: the support link and whether the simulator runs. */
  api.get('/config', async (_req, res) => {
    res.json({ telegramUrl: ctx.config.telegramUrl, gateway: ctx.config.gateway, demo: ctx.config.demo, defaultCountry: await defaultCountry(ctx.db), signupMode: await signupMode(ctx.db, ctx.config) });
  });

  api.get('/admin/setting/get', async (_req, res) => {
    res.json({ setting: settingsView(await getSettings(ctx.db), defaultSignupMode(ctx.config)) });
  });

  api.put('/admin/setting/update', async (req, res) => {
    const input = SettingsUpdate.parse(req.body ?? {});
    const signupDefault = defaultSignupMode(ctx.config);
    const row = await updateSettings(ctx.db, currentUser(req).id, input, signupDefault);
    ctx.realtime.toAdmin('settings', settingsView(row, signupDefault));
    res.json({ setting: settingsView(row, signupDefault), msg: 'Pengaturan berhasil disimpan.' });
  });
}
