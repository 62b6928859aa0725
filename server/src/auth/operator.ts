import { z } from 'zod';

/**
 * The rules for an operator account made outside the console (npm run user:create, or ADMIN_EMAIL and
 * ADMIN_PASSWORD on a first start): one schema, so both ways refuse the same input with the same words.
 * `names` are what the user typed the values as (--email, ADMIN_EMAIL…).
 */
export function operatorCredentials(names: { email: string; password: string }) {
  return z.object({
    email: z.string().trim().email(`${names.email} must be an email address`),
    password: z.string().min(8, `${names.password} must be at least 8 characters`),
  });
}

export const OPERATOR_ROLES = ['admin', 'dev', 'staff', 'member'] as const;

export const USER_CREATE_USAGE = 'npm run user:create -- --email a@b.c --password secret123 --role admin|dev|staff|member [--reset-password]\n       npm run user:create -- --email a@b.c --reset-2fa';
