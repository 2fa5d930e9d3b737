import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import toast from 'react-hot-toast';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { session } from '@/lib/session.ts';

// Lazy route chunks load slowly on a busy machine.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks matchMedia (react-hot-toast asks for prefers-reduced-motion).
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}

// As on the server: an unexpected console.error (React warnings included) fails the test.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error: ${args.map(String).join(' ')}`);
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
  // English is in the bundle: this switch back is synchronous.
  void setLocale('en', { remember: false });
  session.setAccessToken(null);
  session.reload();
  // Toasts live in a module-level store; one test's must not show in the next.
  toast.remove();
});
