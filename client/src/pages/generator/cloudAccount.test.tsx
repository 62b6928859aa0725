// @vitest-environment jsdom
import { Refine, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18nProvider, loadConsoleLocales } from '../../providers/i18n';
import { button } from '../../test/dom';
import type { JobAccount } from './jobRow';

vi.mock('../../lib/session', () => ({ getSessionUser: () => ({ id: 3, role: 'admin', firstname: 'Admin' }) }));
vi.mock('../../lib/config', () => ({ useClientConfig: () => ({ telegramUrl: '', gateway: 'cloud-api', demo: false, defaultCountry: 'ID' }) }));

const { GeneratorCreate } = await import('./create');
const { ValidatorCreate } = await import('../validator/create');

const ACCOUNTS: JobAccount[] = [
  { id: 1, pushname: 'Toko QR', phonenumber: '6281234567890', clientid: 'id-1', state: 'connected', gateway: 'simulator' },
  { id: 2, pushname: 'Toko Cloud', phonenumber: '6281298765432', clientid: 'cloud-106540352242922', state: 'connected', gateway: 'cloud-api' },
];
const ALERT = 'Akun Cloud API tidak dapat memeriksa nomor WhatsApp. Pilih akun yang ditautkan dengan QR code atau nomor.';

beforeAll(async () => {
  await loadConsoleLocales();
});

afterEach(async () => {
  cleanup();
  await act(() => i18nProvider.changeLocale('id'));
});

function renderScreen(screenElement: ReactNode) {
  const custom = vi.fn(async () => ({ data: { list: ACCOUNTS } as never }));
  const dataProvider: DataProvider = {
    getApiUrl: () => '/api',
    getList: async () => ({ data: [], total: 0 }),
    getOne: async () => ({ data: {} as never }),
    create: vi.fn(async () => ({ data: { id: 1 } as never })),
    update: async () => ({ data: {} as never }),
    deleteOne: async () => ({ data: {} as never }),
    custom,
  };
  render(
    <MemoryRouter initialEntries={['/x/create']}>
      <Refine dataProvider={dataProvider} i18nProvider={i18nProvider} options={{ disableTelemetry: true }}>
        <App>{screenElement}</App>
      </Refine>
    </MemoryRouter>,
  );
  return { custom };
}

async function pickAccount(name: string) {
  fireEvent.mouseDown(screen.getByLabelText('WhatsApp', { selector: 'input' }));
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-item-option')].find((el) => el.textContent?.startsWith(name));
    expect(found).toBeTruthy();
    return found!;
  });
  fireEvent.click(option);
}

const submit = () => button('Simpan');

// Each test renders an antd screen in jsdom: a few seconds of CPU (the first also builds antd's styles),
// several times that on a busy machine.
describe('generator and validator create screens: a Cloud API account', { timeout: 60_000 }, () => {
  it('generator: warns and disables Simpan for a Cloud API account, not for a linked device', async () => {
    const { custom } = renderScreen(<GeneratorCreate />);
    fireEvent.change(screen.getByLabelText('Target Nomor Awal'), { target: { value: '6281200000000' } });
    fireEvent.change(screen.getByLabelText('Target Nomor Akhir'), { target: { value: '6281200000100' } });
    await waitFor(() => expect(custom).toHaveBeenCalled());
    await pickAccount('Toko Cloud');
    expect(await screen.findByText(ALERT)).toBeTruthy();
    expect(submit().disabled).toBe(true);
    await pickAccount('Toko QR');
    await waitFor(() => expect(screen.queryByText(ALERT)).toBeNull());
    expect(submit().disabled).toBe(false);
    // One read of the accounts serves the selector and the check.
    expect(custom).toHaveBeenCalledTimes(1);
  });

  it('validator: the same warning, with the file picked', async () => {
    renderScreen(<ValidatorCreate />);
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['6281234567890\n'], 'nomor.csv', { type: 'text/csv' })] } });
    await screen.findByText('nomor.csv');
    await pickAccount('Toko Cloud');
    expect(await screen.findByText(ALERT)).toBeTruthy();
    expect(submit().disabled).toBe(true);
    await pickAccount('Toko QR');
    await waitFor(() => expect(submit().disabled).toBe(false));
    expect(screen.queryByText(ALERT)).toBeNull();
  });

  it('says it in English too', async () => {
    await act(() => i18nProvider.changeLocale('en'));
    renderScreen(<GeneratorCreate />);
    await pickAccount('Toko Cloud');
    expect(await screen.findByText('A Cloud API account cannot check WhatsApp numbers. Choose an account linked by QR code or number.')).toBeTruthy();
  });
});
