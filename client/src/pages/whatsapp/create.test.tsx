// @vitest-environment jsdom
import { Refine, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/http';
import { i18nProvider, loadConsoleLocales } from '../../providers/i18n';
import { button, findButton } from '../../test/dom';

const gateway = { value: 'cloud-api' };
vi.mock('../../lib/config', () => ({ useClientConfig: () => ({ telegramUrl: '', gateway: gateway.value, demo: false, defaultCountry: 'ID' }) }));
vi.mock('../../lib/session', () => ({ getSessionUser: () => ({ id: 5, role: 'member', firstname: 'Nadia' }), getToken: () => 'token' }));
vi.mock('../../providers/live', () => ({ useLive: () => undefined }));

const { WhatsappCreate } = await import('./create');

beforeAll(async () => {
  await loadConsoleLocales();
});

afterEach(async () => {
  cleanup();
  gateway.value = 'cloud-api';
  await act(() => i18nProvider.changeLocale('id'));
});

function renderPage(custom: DataProvider['custom'], path = '/whatsapp/create') {
  const dataProvider: DataProvider = {
    getApiUrl: () => '/api',
    getList: async () => ({ data: [], total: 0 }),
    getOne: async () => ({ data: {} as never }),
    create: async () => ({ data: {} as never }),
    update: async () => ({ data: {} as never }),
    deleteOne: async () => ({ data: {} as never }),
    custom,
  };
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Refine dataProvider={dataProvider} i18nProvider={i18nProvider} options={{ disableTelemetry: true }}>
        <App>
          <Routes>
            <Route path="/whatsapp/create" element={<WhatsappCreate />} />
            <Route path="/whatsapp" element={<p>Daftar Whatsapp (list)</p>} />
          </Routes>
        </App>
      </Refine>
    </MemoryRouter>,
  );
}

function fillCloud() {
  fireEvent.click(screen.getByText('Login dengan Cloud API'));
  fireEvent.change(screen.getByLabelText('Phone Number ID'), { target: { value: '106540352242922' } });
  fireEvent.change(screen.getByLabelText('WhatsApp Business Account ID'), { target: { value: '102290129340398' } });
  fireEvent.change(screen.getByLabelText('Access Token'), { target: { value: 'EAAG-secret' } });
  fireEvent.click(button('Simpan'));
}

// Each test renders an antd screen in jsdom: a few seconds of CPU (the first also builds antd's styles),
// several times that on a busy machine.
describe('/whatsapp/create: Login dengan Cloud API', { timeout: 60_000 }, () => {
  it('offers the Cloud API beside number and QR only when the server runs it', async () => {
    gateway.value = 'simulator';
    const { unmount } = renderPage(vi.fn());
    expect(screen.getByText('Login dengan QR Code')).toBeTruthy();
    expect(screen.getByText('Login dengan Nomor')).toBeTruthy();
    expect(screen.queryByText('Login dengan Cloud API')).toBeNull();
    unmount();
    gateway.value = 'cloud-api';
    renderPage(vi.fn());
    expect(screen.getByText('Login dengan Cloud API')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Generate QR Code' })).toBeTruthy();
    fireEvent.click(screen.getByText('Login dengan Cloud API'));
    expect(screen.queryByRole('button', { name: 'Generate QR Code' })).toBeNull();
    expect((screen.getByLabelText('Access Token') as HTMLInputElement).type).toBe('password');
  });

  it('posts the three fields to cloud-link and goes back one page once saved', async () => {
    let release: () => void = () => undefined;
    const custom = vi.fn(() => new Promise<{ data: never }>((resolve) => (release = () => resolve({ data: { msg: 'Akun WhatsApp berhasil disimpan' } as never }))));
    renderPage(custom);
    fillCloud();
    expect(await findButton(/Menyimpan\.\.\./)).toBeTruthy();
    expect(custom).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/admin/whatsapp/cloud-link', method: 'post', payload: { phoneNumberId: '106540352242922', wabaId: '102290129340398', accessToken: 'EAAG-secret' } }),
    );
    release();
    expect(await screen.findByText('Daftar Whatsapp (list)')).toBeTruthy();
  });

  it('shows the token and number refusals under their fields and a conflict above the button', async () => {
    const custom = vi
      .fn()
      .mockRejectedValueOnce(new ApiError('Token akses tidak valid atau kedaluwarsa', 422, { accessToken: 'Token akses tidak valid atau kedaluwarsa' }))
      .mockRejectedValueOnce(new ApiError('Phone Number ID tidak ditemukan', 422, { phoneNumberId: 'Phone Number ID tidak ditemukan' }))
      .mockRejectedValueOnce(new ApiError('WhatsApp ID sudah dipakai', 409));
    renderPage(custom);
    fillCloud();
    const token = await screen.findByText('Token akses tidak valid atau kedaluwarsa');
    expect(token.closest('.ant-form-item')?.querySelector('#accessToken')).toBeTruthy();
    fireEvent.click(button('Simpan'));
    const number = await screen.findByText('Phone Number ID tidak ditemukan');
    expect(number.closest('.ant-form-item')?.querySelector('#phoneNumberId')).toBeTruthy();
    fireEvent.click(button('Simpan'));
    await waitFor(() => expect(screen.getByTestId('cloud-link-error').textContent).toContain('WhatsApp ID sudah dipakai'));
    expect(screen.queryByText('Daftar Whatsapp (list)')).toBeNull();
  });

  it('asks for every field before calling the server, in English too', async () => {
    await act(() => i18nProvider.changeLocale('en'));
    const custom = vi.fn();
    renderPage(custom);
    fireEvent.click(screen.getByText('Sign in with the Cloud API'));
    fireEvent.change(screen.getByLabelText('Phone Number ID'), { target: { value: '12ab' } });
    fireEvent.click(button('Save'));
    expect(await screen.findByText('Phone Number ID contains digits only.')).toBeTruthy();
    expect(await screen.findByText('WhatsApp Business Account ID is required.')).toBeTruthy();
    expect(await screen.findByText('Access Token is required.')).toBeTruthy();
    expect(custom).not.toHaveBeenCalled();
  });
});
