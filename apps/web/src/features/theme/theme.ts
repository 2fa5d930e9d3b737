import { useSyncExternalStore } from 'react';
import { THEME_KEY } from '@glimpse/contract/theme-boot';
import { storage } from '@/lib/storage.ts';

/** The visitor's theme choice (docs/design.md): 'system' follows prefers-color-scheme. */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'dark', 'light'];

/** The localStorage key, shared with the script that sets the theme before first paint. */
export { THEME_KEY };

const listeners = new Set<() => void>();

function read(): ThemeChoice {
  const v = document.documentElement.getAttribute('data-theme');
  return v === 'light' || v === 'dark' ? v : 'system';
}

/** Remembers the choice and swaps the tokens at once (the CSS keys them on <html data-theme>). */
export function setTheme(choice: ThemeChoice) {
  // Storage blocked: the choice holds for this page only.
  if (choice === 'system') storage.remove(THEME_KEY);
  else storage.set(THEME_KEY, choice);
  document.documentElement.setAttribute('data-theme', choice);
  for (const l of listeners) l();
}

// Another tab chose a theme: follow it here too. Listened to from the module's load rather than
// from a component's subscription, which React makes in a passive effect, so an event that comes
// before that effect ran is not lost (the store re-reads the attribute when it subscribes).
window.addEventListener('storage', (e: StorageEvent) => {
  if (e.key !== THEME_KEY) return;
  document.documentElement.setAttribute('data-theme', e.newValue === 'light' || e.newValue === 'dark' ? e.newValue : 'system');
  for (const l of listeners) l();
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useTheme(): ThemeChoice {
  return useSyncExternalStore(subscribe, read, () => 'system');
}
