/**
 * Proxy values: `host:port` or `scheme://[user:pass@]host:port` with scheme http, https or socks5.
 * Scheme and host are lower-cased; user and password are kept as written.
 */

export const INVALID_PROXY = 'invalid proxy';
export const PROXY_FORMAT_MSG = 'Format proxy harus host:port atau http|https|socks5://[user:pass@]host:port.';

export type ProxyResult = { ok: true; value: string } | { ok: false; reason: typeof INVALID_PROXY; message: string };

const fail = (message = PROXY_FORMAT_MSG): ProxyResult => ({ ok: false, reason: INVALID_PROXY, message });

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

function validHost(host: string): boolean {
  if (/^[\d.]+$/.test(host)) return IPV4.test(host);
  return HOSTNAME.test(host) || IPV6.test(host);
}

function validPort(port: string): boolean {
  if (!/^\d{1,5}$/.test(port)) return false;
  const n = Number(port);
  return n >= 1 && n <= 65535;
}

/** Splits `host:port` (host may be a bracketed IPv6 address). */
function hostPort(text: string): { host: string; port: string } | null {
  const m = /^(\[[^\]]+\]|[^:/?#@\s]+):([^:/?#@\s]+)$/.exec(text);
  return m ? { host: m[1]!.toLowerCase(), port: m[2]! } : null;
}

export function parseProxy(input: unknown): ProxyResult {
  if (typeof input !== 'string' || !input.trim()) return fail('Proxy wajib diisi.');
  const text = input.trim();
  if (/\s/.test(text)) return fail();
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.*)$/.exec(text);
  if (!scheme) {
    const hp = hostPort(text);
    if (!hp || !validHost(hp.host) || !validPort(hp.port)) return fail();
    return { ok: true, value: `${hp.host}:${hp.port}` };
  }
  const protocol = scheme[1]!.toLowerCase();
  if (!['http', 'https', 'socks5'].includes(protocol)) return fail('Skema proxy harus http, https atau socks5.');
  const rest = scheme[2]!;
  const at = rest.lastIndexOf('@');
  const auth = at === -1 ? null : rest.slice(0, at);
  const hp = hostPort(at === -1 ? rest : rest.slice(at + 1));
  if (!hp || !validHost(hp.host) || !validPort(hp.port)) return fail();
  if (auth !== null) {
    const colon = auth.indexOf(':');
    if (colon <= 0 || colon === auth.length - 1 || /[/?#@]/.test(auth)) return fail('Login proxy harus berbentuk user:pass@.');
    return { ok: true, value: `${protocol}://${auth}@${hp.host}:${hp.port}` };
  }
  return { ok: true, value: `${protocol}://${hp.host}:${hp.port}` };
}

export const PASSWORD_MASK = '****';

/** The value with its password replaced by `****`, as lists and forms show it. */
export function maskProxy(value: string): string {
  return value.replace(/^([a-z0-9]+:\/\/[^:@/]+:)[^@]*@/i, `$1${PASSWORD_MASK}@`);
}

/**
 * A value sent back from the edit form: a password still shown as `****` means "keep the stored
 * password" (the user or host may have changed).
 */
export function unmaskProxy(submitted: string, stored: string): string {
  const password = /^[a-z0-9]+:\/\/[^:@/]+:([^@]*)@/i.exec(stored)?.[1];
  if (password === undefined) return submitted;
  return submitted.trim().replace(/^([a-z0-9]+:\/\/[^:@/]+:)\*\*\*\*@/i, (_m, head: string) => `${head}${password}@`);
}
