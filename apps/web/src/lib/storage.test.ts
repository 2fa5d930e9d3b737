import { afterEach, describe, expect, it } from 'vitest';
import { readPrefs, savePrefs } from '@/features/videos/player/prefs.ts';
import { setTheme } from '@/features/theme/theme.ts';
import { preferredLocale, setLocale } from './i18n/i18n.ts';
import { session } from './session.ts';
import { storage } from './storage.ts';

/** As in a frame on another site with third-party storage blocked: even reading `localStorage` throws. */
function blockStorage() {
  const original = Object.getOwnPropertyDescriptor(window, 'localStorage')!;
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get() {
      throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
    },
  });
  return () => Object.defineProperty(window, 'localStorage', original);
}

let unblock: (() => void) | null = null;
afterEach(() => {
  unblock?.();
  unblock = null;
});

describe('storage', () => {
  it('reads, writes and removes through localStorage', () => {
    expect(storage.set('k', '{"a":1}')).toBe(true);
    expect([storage.get('k'), storage.getJson('k')]).toEqual(['{"a":1}', { a: 1 }]);
    storage.set('bad', '{not json');
    expect(storage.getJson('bad')).toBeNull();
    storage.remove('k');
    expect(storage.get('k')).toBeNull();
  });

  it('never throws when storage is blocked: reads find nothing, writes are dropped', () => {
    localStorage.setItem('k', 'v');
    unblock = blockStorage();
    expect(() => localStorage).toThrow('Access is denied');
    expect(storage.get('k')).toBeNull();
    expect(storage.set('k', 'w')).toBe(false);
    expect(() => storage.remove('k')).not.toThrow();
    expect(storage.getJson('k')).toBeNull();
  });

  it('lets the player, theme, language and session work with storage blocked', async () => {
    unblock = blockStorage();
    expect(() => savePrefs({ volume: 0.5 })).not.toThrow();
    expect(readPrefs().volume).toBe(1);
    expect(() => setTheme('dark')).not.toThrow();
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    await setLocale('en');
    expect(preferredLocale()).toBe('en');
    expect(() => session.setUser({ userId: 'u1', userName: 'ada', fullName: 'Ada', email: 'a@x.org', avatar: null, cover: null })).not.toThrow();
    expect(session.getUser()?.userName).toBe('ada');
    expect(() => session.clear()).not.toThrow();
    setTheme('system');
  });
});
