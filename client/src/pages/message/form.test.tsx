// @vitest-environment jsdom
import { Refine, type DataProvider } from '@refinedev/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/http';
import { errorFromBody } from '../../lib/serverError';
import { i18nProvider, loadConsoleLocales } from '../../providers/i18n';
import { button } from '../../test/dom';
import type { MessageRow } from './model';

// The rich-text editor needs a real browser; a textarea stands in for it.
vi.mock('react-quill-new', () => ({
  default: ({ value, onChange }: { value?: string; onChange?: (html: string, d: unknown, s: unknown, e: { getText: () => string }) => void }) => (
    <textarea aria-label="caption" value={value} onChange={(e) => onChange?.(`<p>${e.target.value}</p>`, null, null, { getText: () => e.target.value })} />
  ),
}));

/** The editor loads when its look-alike is focused, and takes its place. */
async function caption(): Promise<HTMLElement> {
  const lookAlike = screen.getByRole('textbox', { name: 'Caption' });
  act(() => lookAlike.focus());
  return screen.findByLabelText('caption');
}

const { MessageForm } = await import('./form');

beforeAll(async () => {
  await loadConsoleLocales();
});

afterEach(async () => {
  cleanup();
  await act(() => i18nProvider.changeLocale('id'));
});

const stored: MessageRow = {
  id: 7,
  media: null,
  text: '<p>Halo {name}</p>',
  text_wa: 'Halo {name}',
  button: [],
  status: 'active',
  count_use: 0,
  waTemplateName: 'promo_november',
  waTemplateLanguage: 'en_US',
  waTemplateParams: ['{phoneNumber}', '{name}'],
};

function provider(overrides: Partial<DataProvider> = {}) {
  const base: DataProvider = {
    getApiUrl: () => '/api',
    getList: async () => ({ data: [], total: 0 }),
    getOne: async () => ({ data: stored as never }),
    create: vi.fn(async () => ({ data: { id: 1 } as never })),
    update: vi.fn(async () => ({ data: stored as never })),
    deleteOne: async () => ({ data: {} as never }),
  };
  return { ...base, ...overrides };
}

function renderForm(dataProvider: DataProvider, id: string | null = null) {
  return render(
    <MemoryRouter>
      <Refine dataProvider={dataProvider} i18nProvider={i18nProvider} options={{ disableTelemetry: true }}>
        <App>
          <MessageForm id={id} title="Tambah Template Pesan" />
        </App>
      </Refine>
    </MemoryRouter>,
  );
}

/** The FormData a create or update call received, as plain entries. */
const sent = (fn: unknown) => {
  const calls = (fn as ReturnType<typeof vi.fn>).mock.calls;
  return Object.fromEntries((calls.at(-1)![0] as { variables: FormData }).variables.entries());
};

async function pick(combobox: HTMLElement, option: string) {
  fireEvent.mouseDown(combobox);
  const choice = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-item-option')].filter((el) => el.textContent === option && !el.closest('.ant-select-dropdown-hidden'));
    expect(found.length).toBeGreaterThan(0);
    return found.at(-1)!;
  });
  fireEvent.click(choice);
}

// Each test renders an antd screen in jsdom: a few seconds of CPU (the first also builds antd's styles),
// several times that on a busy machine.
describe('template form: the Cloud API section', { timeout: 60_000 }, () => {
  it('shows the section with its help and sends name, language and the ordered parameters', async () => {
    const dp = provider();
    renderForm(dp);
    expect(screen.getByText(/Diperlukan untuk akun yang ditautkan melalui Cloud API/)).toBeTruthy();
    fireEvent.change(await caption(), { target: { value: 'Halo {name}' } });
    fireEvent.change(screen.getByLabelText('Nama Template WhatsApp'), { target: { value: 'promo_november' } });
    fireEvent.change(screen.getByLabelText('Bahasa'), { target: { value: 'id' } });
    const add = button(/Tambah Parameter/);
    fireEvent.click(add);
    fireEvent.click(add);
    fireEvent.click(add);
    await pick(screen.getByLabelText('Parameter 2'), '{phoneNumber} (nomor target)');
    fireEvent.click(screen.getByLabelText('Hapus parameter 3'));
    expect(screen.queryByLabelText('Parameter 3')).toBeNull();
    fireEvent.click(button('Simpan'));
    await waitFor(() => expect(dp.create).toHaveBeenCalled());
    expect(sent(dp.create)).toMatchObject({ waTemplateName: 'promo_november', waTemplateLanguage: 'id', waTemplateParams: '["{name}","{phoneNumber}"]' });
  });

  it('refuses a bad name and a name without language under their fields, without calling the server', async () => {
    const dp = provider();
    renderForm(dp);
    fireEvent.change(await caption(), { target: { value: 'Halo' } });
    fireEvent.change(screen.getByLabelText('Nama Template WhatsApp'), { target: { value: 'Promo Nov' } });
    fireEvent.click(button('Simpan'));
    expect(await screen.findByText('Nama Template WhatsApp hanya boleh huruf kecil, angka dan garis bawah.')).toBeTruthy();
    expect(await screen.findByText('Bahasa wajib diisi bila Nama Template WhatsApp diisi.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Bahasa'), { target: { value: 'en-US' } });
    expect(await screen.findByText('Bahasa tidak valid (contoh: id, en_US).')).toBeTruthy();
    expect(dp.create).not.toHaveBeenCalled();
  });

  it('loads the stored mapping on edit and shows a server field error under its field', async () => {
    const update = vi.fn(async () => {
      throw new ApiError('Parameter template hanya boleh {name} atau {phoneNumber}.', 422, { waTemplateName: 'Nama Template WhatsApp maksimal 512 karakter.' });
    });
    const dp = provider({ update });
    renderForm(dp, '7');
    await waitFor(() => expect((screen.getByLabelText('Nama Template WhatsApp') as HTMLInputElement).value).toBe('promo_november'));
    expect((screen.getByLabelText('Bahasa') as HTMLInputElement).value).toBe('en_US');
    const params = screen.getByTestId('wa-template-params');
    expect(within(params).getAllByRole('combobox')).toHaveLength(2);
    expect(params.textContent).toContain('{phoneNumber} (nomor target)');
    fireEvent.click(button('Simpan'));
    await waitFor(() => expect(update).toHaveBeenCalled());
    expect(sent(update)).toMatchObject({ waTemplateName: 'promo_november', waTemplateLanguage: 'en_US', waTemplateParams: '["{phoneNumber}","{name}"]' });
    expect(await screen.findByText('Nama Template WhatsApp maksimal 512 karakter.')).toBeTruthy();
  });

  it("shows the server's mapping refusals in the active language, placeholders intact", async () => {
    await act(() => i18nProvider.changeLocale('en'));
    const body = { msg: 'Parameter template hanya boleh {name} atau {phoneNumber}.', errors: { waTemplateParams: 'Parameter template hanya boleh {name} atau {phoneNumber}.' } };
    const err = errorFromBody(body, 422, 'x');
    expect(err.message).toBe('Template parameters may only be {name} or {phoneNumber}.');
    expect(err.errors).toEqual({ waTemplateParams: 'Template parameters may only be {name} or {phoneNumber}.' });
    expect(errorFromBody({ msg: 'Bahasa wajib diisi bila Nama Template WhatsApp diisi.' }, 422, 'x').message).toBe('A language is required when a WhatsApp template name is given.');
  });

  it("shows what Meta said about the saved mapping in the screen's language, and nothing when it has no objection", async () => {
    await act(() => i18nProvider.changeLocale('en'));
    const waTemplateCheck = {
      wabas: ['201', '202'],
      warnings: [
        { code: 'wa_check_status', msg: 'Template WhatsApp "promo_november" (en_US) di WABA 201 berstatus PENDING, belum APPROVED.', params: { template: 'promo_november', language: 'en_US', status: 'PENDING', waba: '201' }, wabaId: '201' },
        { code: 'wa_check_unavailable', msg: 'Template WhatsApp tidak dapat diperiksa di WABA 202: Meta tidak dapat dihubungi.', params: { waba: '202' }, wabaId: '202' },
      ],
    };
    const update = vi.fn(async () => ({ data: { ...stored, waTemplateCheck } as never }));
    renderForm(provider({ update }), '7');
    await waitFor(() => expect((screen.getByLabelText('WhatsApp Template Name') as HTMLInputElement).value).toBe('promo_november'));
    fireEvent.click(button('Save'));
    const dialog = await screen.findByRole('dialog', { name: 'Message template saved, but its WhatsApp template needs attention' });
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'WhatsApp template "promo_november" (en_US) in WABA 201 has status PENDING, not APPROVED.',
      'The WhatsApp template could not be checked in WABA 202: Meta could not be reached.',
    ]);
    expect(within(dialog).getByText(/will be refused by Meta until the above is fixed/)).toBeTruthy();
    cleanup();

    // Meta could only not be asked: the dialog says so without claiming that blasts will fail.
    const unchecked = vi.fn(async () => ({ data: { ...stored, waTemplateCheck: { wabas: ['202'], warnings: [waTemplateCheck.warnings[1]] } } as never }));
    renderForm(provider({ update: unchecked }), '7');
    await waitFor(() => expect((screen.getByLabelText('WhatsApp Template Name') as HTMLInputElement).value).toBe('promo_november'));
    fireEvent.click(button('Save'));
    const second = await screen.findByRole('dialog', { name: 'Message template saved, but its WhatsApp template needs attention' });
    expect(within(second).queryByText(/will be refused by Meta/)).toBeNull();
    cleanup();

    const clean = vi.fn(async () => ({ data: { ...stored, waTemplateCheck: { wabas: ['201'], warnings: [] } } as never }));
    renderForm(provider({ update: clean }), '7');
    await waitFor(() => expect((screen.getByLabelText('WhatsApp Template Name') as HTMLInputElement).value).toBe('promo_november'));
    fireEvent.click(button('Save'));
    await waitFor(() => expect(clean).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('has every label in English too', async () => {
    await act(() => i18nProvider.changeLocale('en'));
    renderForm(provider());
    expect(screen.getByLabelText('WhatsApp Template Name')).toBeTruthy();
    expect(screen.getByLabelText('Language')).toBeTruthy();
    expect(button(/Add Parameter/)).toBeTruthy();
    expect(screen.getByText(/Needed for accounts linked through the Cloud API/)).toBeTruthy();
  });
});
