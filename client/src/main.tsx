import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureReferral } from './lib/referral';
import './styles.css';
import App from './App';

captureReferral();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
