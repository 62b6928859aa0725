import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { PublicOnly } from './components/layout/PublicOnly';

/**
 * A page module loaded when its route is first opened, so each screen downloads only its own code
 * (the rich-text editor, QR codes, monitor viewers and charts stay on their screens).
 */
export function page<K extends string, P extends object>(load: () => Promise<Record<K, (props: P) => ReactNode>>, name: K): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: (await load())[name] }));
}

const SignIn = page(() => import('./pages/auth/SignIn'), 'SignIn');
const SignUp = page(() => import('./pages/auth/SignUp'), 'SignUp');
const TwoFactorSetup = page(() => import('./pages/auth/TwoFactorSetup'), 'TwoFactorSetup');
const ResetPassword = page(() => import('./pages/misc/Static'), 'ResetPassword');
const Terms = page(() => import('./pages/misc/Static'), 'Terms');
const PrivacyPolicy = page(() => import('./pages/misc/Static'), 'PrivacyPolicy');

/** Screens outside the console: no Refine, so /signin downloads as little as possible. */
export const publicRoutes: Array<{ path: string; element: ReactNode }> = [
  {
    path: '/signin',
    element: (
      <PublicOnly>
        <SignIn />
      </PublicOnly>
    ),
  },
  {
    path: '/signup',
    element: (
      <PublicOnly>
        <SignUp />
      </PublicOnly>
    ),
  },
  // A sign-in that must set up two-factor first (REQUIRE_2FA) holds a token that opens only this.
  { path: '/two-factor/setup', element: <TwoFactorSetup /> },
  { path: '/reset-password', element: <ResetPassword /> },
  { path: '/terms', element: <Terms /> },
  { path: '/privacy-policy', element: <PrivacyPolicy /> },
];
