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
  { path: '/reset-password', element: <ResetPassword /> },
  { path: '/terms', element: <Terms /> },
  { path: '/privacy-policy', element: <PrivacyPolicy /> },
];
