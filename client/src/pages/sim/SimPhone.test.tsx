// @vitest-environment jsdom
import { Refine, type DataProvider } from '@refinedev/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18nProvider, loadConsoleLocales } from '../../providers/i18n';

vi.mock('../../lib/config', () => ({ useClientConfig: () => ({ telegramUrl: '', gateway: 'simulator', demo: true, defaultCountry: 'ID' }) }));
vi.mock('../../lib/session', () => ({ getToken: () => 'token' }));

const { SimPhone } = await import('./SimPhone');

beforeAll(async () => {
  await loadConsoleLocales();
});
afterEach(() => cleanup());

const device = { deviceId: 'id-1-1', phase: 'connected', identity: { phonenumber: '6281100000001', pushname: 'Toko' }, qr: null, code: null, expiresAt: null, lastSent: null };
const message = {
  id: 'm1',
  from: '6281100000001',
  text: 'Promo untuk Sri',
  date: new Date().toISOString(),
  media: null,
  revoked: false,
  buttons: [
    { id: 'reply_button:2:ya', title: 'Terima kasih', type: 'reply_button' },
    { id: 'url_button:2:web', title: 'Situs', type: 'url_button' },
    { id: 'stop_button:2:berhenti', title: 'Berhenti', type: 'stop_button' },
  ],
};

describe('/sim: the inbox', { timeout: 60_000 }, () => {
  it("presses a message's stop button as the handset would: a reply with the button's id to the account that sent it", async () => {
    const custom = vi.fn(async ({ url }: { url: string }) => {
      if (url === '/sim/devices') return { data: { devices: [device] } };
      if (url.startsWith('/sim/inbox/')) return { data: { messages: [message] } };
      return { data: { ok: true } };
    });
    const dataProvider = {
      getApiUrl: () => '/api',
      getList: async () => ({ data: [], total: 0 }),
      getOne: async () => ({ data: {} }),
      create: async () => ({ data: {} }),
      update: async () => ({ data: {} }),
      deleteOne: async () => ({ data: {} }),
      custom,
    } as unknown as DataProvider;
    render(
      <MemoryRouter initialEntries={['/sim']}>
        <Refine dataProvider={dataProvider} i18nProvider={i18nProvider} options={{ disableTelemetry: true }}>
          <App>
            <Routes>
              <Route path="/sim" element={<SimPhone />} />
            </Routes>
          </App>
        </Refine>
      </MemoryRouter>,
    );
    fireEvent.change(await screen.findByLabelText('Nomor kotak masuk'), { target: { value: '6289665150651' } });
    const stop = await screen.findByRole('button', { name: 'Berhenti' });
    // A link button is shown, not pressed.
    expect(screen.queryByRole('button', { name: 'Situs' })).toBeNull();
    expect(screen.getByText('Situs')).toBeTruthy();
    fireEvent.click(stop);
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        expect.objectContaining({
          url: '/sim/reply',
          method: 'post',
          payload: { from: '6289665150651', deviceId: 'id-1-1', text: 'Berhenti', buttonId: 'stop_button:2:berhenti' },
        }),
      ),
    );
  });
});
