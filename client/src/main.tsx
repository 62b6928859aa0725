import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureReferral } from './lib/referral';
import './styles.css';
import Root from './Root';

captureReferral();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
