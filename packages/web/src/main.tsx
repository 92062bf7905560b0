import './lib/zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, prepareFirstRender } from './app/App.tsx';
import { isAgeConfirmed, settleServedAgeGate } from './app/age-gate.ts';
import { applyTheme } from './app/theme.ts';
import './styles/global.css';

applyTheme();
settleServedAgeGate();
// Nothing of the library loads before the 18+ gate is passed.
if (isAgeConfirmed()) await prepareFirstRender(window.location.pathname);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The app shell works offline once the service worker (built into dist/sw.js) has installed.
// Registered after the page's load, not to compete with it; the first render may have waited past it.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js');
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register);
}
