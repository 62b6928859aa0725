import { matchResourceFromRoute, ResourceContext, type CrudFilter, type GoConfig, type ParseResponse, type RouterProvider } from '@refinedev/core';
import base from '@refinedev/react-router';
import { createElement, forwardRef, useCallback, useContext, useMemo, type ComponentProps } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

/**
 * The spec's address words for what Refine keeps as filters: `?s=`, `?search=`, `?status=`, `?user_id=`
 * (and the phone list's `?line_type=`). A filter's field is the address word; the data provider passes
 * it on to the list call under the same name.
 */
export const ADDRESS_FILTERS = ['s', 'search', 'status', 'user_id', 'line_type'] as const;
const FILTER_KEYS = new Set<string>(ADDRESS_FILTERS);
/** Refine's own table words, which never reach the address as they are. */
const REFINE_KEYS = new Set(['currentPage', 'pageSize', 'sorters', 'filters', 'current']);

type Query = Record<string, unknown>;

/**
 * Refine's edit route `/proxy/edit/5` as the spec's address `/proxy/edit?id=5` (resources.tsx); any
 * other path is left as it is.
 */
export function specPath(to: string): string {
  const m = /^(\/[^?#]*\/edit)\/([^/?#]+)(\?[^#]*)?(#.*)?$/.exec(to);
  if (!m) return to;
  const query = new URLSearchParams(m[3] ?? '');
  query.set('id', decodeURIComponent(m[2]!));
  return `${m[1]}?${query.toString()}${m[4] ?? ''}`;
}

/** Refine's table state → the spec's words: `currentPage` → `page`, each eq filter → its own word. */
export function toAddress(query: Query, existing: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(existing);
  for (const [key, value] of Object.entries(query)) {
    if (REFINE_KEYS.has(key)) continue;
    if (value === undefined || value === null) out.delete(key);
    else out.set(key, String(value));
  }
  // Refine's own state wins over a copy of the old address passed beside it.
  const filters = query.filters;
  if (Array.isArray(filters)) {
    // Each word keeps its place in the address: `?s=toko` stays `?s=toko&page=1`.
    const next = new Map<string, string>();
    for (const f of filters as CrudFilter[]) {
      if ('field' in f && FILTER_KEYS.has(f.field) && f.value !== undefined && f.value !== null && String(f.value) !== '') next.set(f.field, String(f.value));
    }
    for (const key of FILTER_KEYS) {
      const value = next.get(key);
      if (value === undefined) out.delete(key);
      else out.set(key, value);
    }
  }
  if (query.currentPage !== undefined) out.set('page', String(query.currentPage));
  return out;
}

/** The spec's words → Refine's table state: `page` → `currentPage` (10 rows a page), words → eq filters. */
export function fromAddress(search: URLSearchParams): { currentPage?: number; pageSize: number; filters?: CrudFilter[] } {
  const page = Number(search.get('page'));
  const filters: CrudFilter[] = [];
  for (const key of ADDRESS_FILTERS) {
    const value = search.get(key);
    if (value) filters.push({ field: key, operator: 'eq', value });
  }
  return { ...(page >= 1 ? { currentPage: Math.floor(page) } : {}), pageSize: 10, ...(filters.length ? { filters } : {}) };
}

/**
 * `@refinedev/react-router` with the spec's address: lists keep `?page=` and their filters under the
 * spec's words (not `currentPage`, `pageSize`, `filters[0][field]`), and edit screens name their record
* as `?id=`, so `syncWithLocation` and `useForm`'s id inference work on the spec's addresses.
 */
export const routerProvider: RouterProvider = {
  ...base,
  go: () => {
    const { search } = useLocation();
    const navigate = useNavigate();
    return useCallback(
      ({ to, type, query, hash, options: { keepQuery } = {} }: GoConfig) => {
        const [path, own = ''] = specPath(to ?? '').split('?');
        const start = new URLSearchParams(keepQuery ? search : '');
        new URLSearchParams(own).forEach((v, k) => start.set(k, v));
        let params = toAddress((query ?? {}) as Query, start);
        // A list opened without `?page=` keeps its plain address for page 1 (`/level`, not `/level?page=1`).
        if (!start.has('page') && params.get('page') === '1') {
          const plain = new URLSearchParams(params);
          plain.delete('page');
          if (plain.toString() === start.toString()) params = plain;
        }
        const qs = params.toString();
        const full = `${path || (to === undefined ? window.location.pathname : '')}${qs ? `?${qs}` : ''}${hash ? `#${hash.replace(/^#/, '')}` : ''}`;
        if (type === 'path') return full;
        navigate(full, { replace: type === 'replace' });
        return undefined;
      },
      [search, navigate],
    );
  },
  parse: () => {
    const { pathname, search } = useLocation();
    const { resources } = useContext(ResourceContext);
    const id = new URLSearchParams(search).get('id');
    // `/proxy/edit?id=5` is Refine's `/proxy/edit/:id`; `/bonus/create?id=3` stays the create screen.
    const { resource, action } = useMemo(() => {
      const withId = id ? matchResourceFromRoute(`${pathname.replace(/\/$/, '')}/${encodeURIComponent(id)}`, resources) : undefined;
      return withId?.found ? withId : matchResourceFromRoute(pathname, resources);
    }, [pathname, id, resources]);
    return useCallback((): ParseResponse => {
      const params = new URLSearchParams(search);
      const rest = Object.fromEntries(params.entries());
      return {
        ...(resource && { resource }),
        ...(action && { action }),
        ...(id && { id }),
        pathname,
        // `search` is the raw query string to Refine's useTable (an empty one resets the table to its
        // first page and no filters: a menu link to the list it shows); the spec's `?search=` is a filter.
        params: { ...rest, search: params.toString(), ...fromAddress(params) },
      };
    }, [pathname, search, resource, action, id]);
  },
  Link: forwardRef<HTMLAnchorElement, ComponentProps<NonNullable<RouterProvider['Link']>>>(function SpecLink({ to, ...rest }, ref) {
    return createElement(Link, { ...rest, to: specPath(to), ref });
  }),
};
