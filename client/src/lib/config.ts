import { useEffect, useState } from 'react';
import { api } from './http';

export interface ClientConfig {
  telegramUrl: string;
  gateway: string;
  demo: boolean;
  /** 'Kode Negara Default' from the settings: how the forms read numbers without a country code. */
  defaultCountry: string;
  /** 'Pendaftaran': who may sign up (open, with a referral code only, or nobody). */
  signupMode?: 'open' | 'referral' | 'closed';
}

const FALLBACK: ClientConfig = { telegramUrl: 'https://t.me/blast_support', gateway: 'simulator', demo: false, defaultCountry: 'ID' };
let cached: Promise<ClientConfig> | null = null;

export function loadConfig(): Promise<ClientConfig> {
  cached ??= api<ClientConfig>('/config', { anonymous: true }).catch(() => FALLBACK);
  return cached;
}

/** Forgets the cached config (after the settings change it). */
export function reloadConfig(): void {
  cached = null;
}

export function useClientConfig(): ClientConfig {
  const [config, setConfig] = useState<ClientConfig>(FALLBACK);
  useEffect(() => {
    let live = true;
    void loadConfig().then((c) => live && setConfig(c));
    return () => {
      live = false;
    };
  }, []);
  return config;
}
