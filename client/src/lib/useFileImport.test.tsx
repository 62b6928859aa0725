// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import type { UploadFile } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18nProvider, loadConsoleLocales } from '../providers/i18n';
import { useFileImport } from './useFileImport';

beforeAll(async () => {
  await loadConsoleLocales();
});

afterEach(async () => {
  await act(() => i18nProvider.changeLocale('id'));
});

const picked = { uid: '1', name: 'a.csv', originFileObj: new File(['x'], 'a.csv') } as unknown as UploadFile;

describe('useFileImport', () => {
  it("asks for a file in the active language when none is picked, without calling the server", async () => {
    const setError = vi.fn();
    const send = vi.fn();
    const { result } = renderHook(() => useFileImport(setError));
    await act(() => result.current.upload(send));
    expect(setError).toHaveBeenLastCalledWith('File wajib diunggah.');
    await act(() => i18nProvider.changeLocale('en'));
    await act(() => result.current.upload(send));
    expect(setError).toHaveBeenLastCalledWith('A file must be uploaded.');
    expect(send).not.toHaveBeenCalled();
  });

  it("shows the failure's own text, else the locale's network error", async () => {
    const setError = vi.fn();
    const { result } = renderHook(() => useFileImport(setError));
    act(() => result.current.setFile(picked));
    await act(() => result.current.upload(() => Promise.reject(new Error('Baris CSV terlalu panjang'))));
    expect(setError).toHaveBeenLastCalledWith('Baris CSV terlalu panjang');
    act(() => result.current.setFile(picked));
    await act(() => result.current.upload(() => Promise.reject(new Error(''))));
    expect(setError).toHaveBeenLastCalledWith('Network error. Please try again.');
  });

  it('keeps the answer and clears the picked file after a successful import', async () => {
    const { result } = renderHook(() => useFileImport<{ created: number }>(vi.fn()));
    act(() => result.current.setFile(picked));
    await act(() => result.current.upload(() => Promise.resolve({ created: 3 })));
    expect(result.current.result).toEqual({ created: 3 });
    expect(result.current.file).toBeNull();
  });
});
