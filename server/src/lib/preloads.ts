/**
 * The `Link` header of a console page: its route's JavaScript files as `rel=modulepreload`, read from the
 * build's `.vite/preloads.json` (client/build/routePreloads.ts), so the browser fetches the console, the
 * layout and the screen at once, before the entry asks for them one lazy import after another. Routes are
 * exact paths (the console's ids travel in the query string). A missing or unreadable file means no header.
 */
export type PreloadLinks = (pathname: string) => string | undefined;

const FILE = /^\/assets\/[\w.-]+\.js$/;

export function preloadLinks(json: string | null): PreloadLinks {
  if (json === null) return () => undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return () => undefined;
  }
  if (!parsed || typeof parsed !== 'object') return () => undefined;
  const headers = new Map<string, string>();
  for (const [route, files] of Object.entries(parsed as Record<string, unknown>)) {
    if (!Array.isArray(files)) continue;
    const links = files.filter((f): f is string => typeof f === 'string' && FILE.test(f)).map((f) => `<${f}>; rel=modulepreload`);
    if (links.length) headers.set(route, links.join(', '));
  }
  return (pathname) => headers.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}
