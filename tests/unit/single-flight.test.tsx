// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSingleFlight } from '../../client/src/lib/useSingleFlight';

describe('useSingleFlight', () => {
  it('drops a call while the one before is running, and takes the next once it has ended', async () => {
    const { result } = renderHook(() => useSingleFlight());
    const calls: number[] = [];
    let finish: () => void = () => undefined;
    const send = result.current(async (n: number) => {
      calls.push(n);
      await new Promise<void>((resolve) => (finish = resolve));
      return n * 10;
    });
    let first: Promise<number | undefined> = Promise.resolve(undefined);
    let second: Promise<number | undefined> = Promise.resolve(undefined);
    act(() => {
      first = send(1);
      second = send(2); // the double click
    });
    expect(await second).toBeUndefined();
    finish();
    expect(await first).toBe(10);
    const third = send(3);
    finish();
    expect(await third).toBe(30);
    expect(calls).toEqual([1, 3]);
  });

  it('takes the next call after one that failed', async () => {
    const { result } = renderHook(() => useSingleFlight());
    const fail = result.current(async () => {
      throw new Error('refused');
    });
    await expect(fail()).rejects.toThrow('refused');
    const ok = result.current(async () => 'sent');
    expect(await ok()).toBe('sent');
  });
});
