// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { authProvider } from '../../client/src/providers/auth';
import { endSession, startSession } from '../../client/src/lib/session';

describe('auth provider: a refused call', () => {
  afterEach(() => endSession());

  it('ends the session on 401 when there is one', async () => {
    startSession('tok123', { id: 7, firstname: 'A', lastname: 'B', email: 'a@b.c', role: 'admin' });
    expect(await authProvider.onError({ statusCode: 401 })).toEqual({ logout: true, redirectTo: '/signin' });
    expect(await authProvider.onError({ statusCode: 403 })).toEqual({});
  });

  it('leaves a visitor without a session on the page (the open simulated phone refuses them itself)', async () => {
    expect(await authProvider.onError({ statusCode: 401 })).toEqual({});
  });
});
