import { startTransition, StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { seedFirstScreen } from './app/first-data.ts';
import { createAppRouter } from './app/router.tsx';
import { shellImagesShown } from './app/shell-image.ts';
import { applyAppStyles, appStylesLoaded } from './app/shell-styles.ts';
import './index.css';
import { restoreSession } from './lib/me.ts';
import { createQueryClient } from './lib/query-client.ts';
import { dropFirstData, loadFirstData } from './lib/first-data.ts';
import { initLocale } from './lib/i18n/i18n.ts';
import { session } from './lib/session.ts';

// Read before restoreSession: only an anonymous visitor uses the embedded answers.
const hasFirstData = loadFirstData(session.getUser() !== null);

// Before the first call: a stored user gets a fresh access token from the refresh cookie.
restoreSession();

/**
 * Applies the app's stylesheet in the first render's commit, the one that takes the shell off the
 * page: first among the root's children, so before any of the app's own layout effects measure.
 */
function AppStyles() {
  useLayoutEffect(() => applyAppStyles(), []);
  return null;
}

/**
 * The server's filled shell stays on screen until the first render can replace it with the same
 * content (ADR 017): the route's lazy module is loaded and the cache holds the embedded answers.
 * Rendering earlier would blank the page while the route's chunk loads. A chosen language other than
 * English loads its catalogue first, so the page never shows in English before switching (a failed
 * load stays in English). The shell's main image is painted first (shell-image.ts), and the app's
 * stylesheet, which a shell page loads without blocking its paint, has loaded (shell-styles.ts). On
 * the watch page these scripts only run once the shell's video has its first frame (or 1.5 s have
 * passed): the server's inline loader requests them then (ADR 017, addendum 8).
 */
async function start() {
  // A task of its own: evaluating the modules is one long task already, and the router's first
  // navigation (matching, the route's module, the embedded answers) would lengthen it on a phone.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const queryClient = createQueryClient();
  const router = createAppRouter();
  const routed = router.state.initialized
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const stop = router.subscribe((state) => {
          if (!state.initialized) return;
          stop();
          resolve();
        });
      });
  await Promise.all([
    routed,
    hasFirstData ? seedFirstScreen(queryClient, window.location) : undefined,
    initLocale().catch((err: unknown) => console.warn('Loading the language failed', err)),
    shellImagesShown(),
    appStylesLoaded(),
  ]);
  // Answers left unused by the first screen must not stand in for a later page's requests.
  const leave = router.subscribe(() => {
    leave();
    dropFirstData();
  });
  // As a transition: React renders the first screen in slices of a few milliseconds instead of one
  // long task, so a phone's main thread stays free for input while the shell is on screen.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppStyles />
        <App router={router} queryClient={queryClient} />
      </StrictMode>,
    ),
  );
}

void start();
