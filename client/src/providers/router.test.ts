import { describe, expect, it } from 'vitest';
import { fromAddress, specPath, toAddress } from './router';

describe("the router provider's address words", () => {
  it("reads the spec's page and filters as Refine's table state", () => {
    const parsed = fromAddress(new URLSearchParams('page=3&s=toko&status=online&user_id=7&id=5'));
    expect(parsed.currentPage).toBe(3);
    expect(parsed.pageSize).toBe(10);
    expect(parsed.filters).toEqual([
      { field: 's', operator: 'eq', value: 'toko' },
      { field: 'status', operator: 'eq', value: 'online' },
      { field: 'user_id', operator: 'eq', value: '7' },
    ]);
    // No filter in the address: the screen's initial filters apply.
    expect(fromAddress(new URLSearchParams('page=abc')).filters).toBeUndefined();
    expect(fromAddress(new URLSearchParams('page=abc')).currentPage).toBeUndefined();
  });

  it("writes Refine's table state with the spec's words and keeps the rest of the address", () => {
    const out = toAddress(
      {
        currentPage: 2,
        pageSize: 10,
        sorters: [],
        filters: [
          { field: 'search', operator: 'eq', value: '6281' },
          { field: 'status', operator: 'eq', value: undefined },
        ],
      },
      new URLSearchParams('id=9&status=idle&page=7'),
    );
    expect(out.toString()).toBe('id=9&page=2&search=6281');
  });

  it('lets the table state win over an old copy of the address passed beside it', () => {
    const out = toAddress({ currentPage: 1, filters: [], page: '4', s: 'old' }, new URLSearchParams('s=old&page=4'));
    expect(out.get('page')).toBe('1');
    expect(out.has('s')).toBe(false);
  });
});

describe("Refine's edit routes as the spec's addresses", () => {
  it('writes /proxy/edit/5 as /proxy/edit?id=5 and leaves other paths alone', () => {
    expect(specPath('/proxy/edit/5')).toBe('/proxy/edit?id=5');
    expect(specPath('/level/edit/12?from=list')).toBe('/level/edit?from=list&id=12');
    expect(specPath('/proxy/create')).toBe('/proxy/create');
    expect(specPath('/member/whatsapp?id=4')).toBe('/member/whatsapp?id=4');
  });
});
