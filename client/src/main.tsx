import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureReferral } from './lib/referral';
import './styles.css';
import { localeReady } from './providers/i18n';
import Root from './Root';

captureReferral();

// An English visitor's texts download first, so the first paint is already in their language.
void localeReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);
