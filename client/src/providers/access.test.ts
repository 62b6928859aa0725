// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../../common/roles';
import { endSession, startSession, type SessionUser } from '../lib/session';
import { accessAnswer, accessControlProvider } from './access';

const as = (role: Role) => startSession('token', { id: 1, firstname: 'A', lastname: 'B', email: 'a@demo.test', role } as SessionUser);
const can = async (resource: string, action: string) => (await accessControlProvider.can({ resource, action })).can;

afterEach(() => endSession());

describe('rules the spec states by role', () => {
  // Which roles each answer allows, as the spec rules them.
  const table: Array<[string, string, Role[]]> = [
    ['dashboard', 'member', ['member']],
    ['dashboard', 'admin', ['admin', 'dev']],
    ['whatsapp', 'listAll', ['dev']],
    ['jobs', 'listAll', ['dev']],
    ['whatsapp', 'returnToList', ['member']],
    ['whatsapp', 'add', ['member']],
    ['whatsapp', 'actions', ['member', 'dev']],
    ['whatsapp', 'owner', ['admin', 'dev']],
    ['whatsapp', 'schedule', ['admin']],
    ['books', 'withdrawals', ['admin']],
    ['withdraw', 'decide', ['admin']],
    ['live', 'admin', ['admin', 'dev']],
  ];
  for (const [resource, action, allowed] of table) {
    it(`${resource}:${action} is for ${allowed.join(', ')} only`, async () => {
      for (const role of ROLES) {
        as(role);
        expect(await can(resource, action), role).toBe(allowed.includes(role));
      }
    });
  }

  it('answers no to everything without a session', async () => {
    expect(await can('dashboard', 'admin')).toBe(false);
    expect(await can('withdraw', 'decide')).toBe(false);
  });

  it('still answers pages from the route table', async () => {
    as('member');
    expect((await accessControlProvider.can({ resource: 'proxy', action: 'list', params: { path: '/proxy' } })).can).toBe(false);
    as('admin');
    expect((await accessControlProvider.can({ resource: 'proxy', action: 'list', params: { path: '/proxy' } })).can).toBe(true);
  });

  it('answers at once, the same as Refine is told, for a first render', async () => {
    for (const role of ROLES) {
      as(role);
      for (const action of ['actions', 'owner', 'schedule', 'add']) {
        expect(accessAnswer({ resource: 'whatsapp', action }), `${role} ${action}`).toEqual(await accessControlProvider.can({ resource: 'whatsapp', action }));
      }
    }
  });
});
