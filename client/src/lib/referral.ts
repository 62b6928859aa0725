export const REFERRAL_KEY = 'referral_code';

/** On any page load: keep ?referral= in localStorage and drop it from the address without reloading. */
export function captureReferral(): void {
  const url = new URL(window.location.href);
  const code = url.searchParams.get('referral');
  if (code === null) return;
  if (code.trim()) localStorage.setItem(REFERRAL_KEY, code.trim());
  url.searchParams.delete('referral');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

export function storedReferral(): string {
  return localStorage.getItem(REFERRAL_KEY) ?? '';
}
