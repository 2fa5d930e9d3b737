import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../index.css';
import { EmbedPage } from './embed-page.tsx';
import { initLocale } from '../lib/i18n/i18n.ts';

// The player other sites frame: no router, query cache or session, only the video and its player.
// The player's labels in the visitor's language (ADR 021); a failed load stays in English.
void initLocale()
  .catch((err: unknown) => console.warn('Loading the language failed', err))
  .finally(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <EmbedPage location={window.location} />
      </StrictMode>,
    ),
  );
