import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import './index.css';
import { restoreSession } from './features/auth/api/auth-api.ts';

// Before the first call: a stored user gets a fresh access token from the refresh cookie.
restoreSession();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
