import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { THEME_BOOT_SCRIPT } from '@glimpse/contract/theme-boot';
import { THEME_KEY } from './theme.ts';

const anonymous = () => fakeApi((url) => (url.pathname === '/api/v1/users/me' ? { status: 401, message: 'Please login' } : { data: { data: [], hasNextPage: false, nextCursor: null } }));

/** The script index.html runs before first paint, run here on the test's document. */
const boot = () => new Function(THEME_BOOT_SCRIPT)();
const theme = () => document.documentElement.getAttribute('data-theme');

afterEach(() => document.documentElement.removeAttribute('data-theme'));

describe('theme', () => {
  it('before first paint: the stored choice, else the system', () => {
    boot();
    expect(theme()).toBe('system');
    localStorage.setItem(THEME_KEY, 'dark');
    boot();
    expect(theme()).toBe('dark');
    localStorage.setItem(THEME_KEY, 'light');
    boot();
    expect(theme()).toBe('light');
    localStorage.setItem(THEME_KEY, 'purple');
    boot();
    expect(theme()).toBe('system');
  });

  it('an anonymous visitor picks Dark in the top bar: applied at once, remembered for the next load, Device theme forgets it', async () => {
    anonymous();
    boot();
    const { unmount } = renderApp('/help');
    await userEvent.click(await screen.findByRole('button', { name: 'Appearance: Device theme' }));
    const menu = screen.getByRole('menu', { name: 'Appearance' });
    expect(within(menu).getByRole('menuitemradio', { name: 'Device theme' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(within(menu).getByRole('menuitemradio', { name: 'Dark theme' }));
    expect(theme()).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(screen.queryByRole('menu', { name: 'Appearance' })).not.toBeInTheDocument();

    // The next load: the boot script applies it and the menu shows it.
    unmount();
    document.documentElement.removeAttribute('data-theme');
    boot();
    expect(theme()).toBe('dark');
    renderApp('/help');
    await userEvent.click(await screen.findByRole('button', { name: 'Appearance: Dark theme' }));
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'Device theme' }));
    expect(theme()).toBe('system');
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
  });

  it('follows a choice made in another tab, also one made before the top bar subscribed', async () => {
    anonymous();
    renderApp('/help');
    // At once, before React ran the menu's effects: the event must not be lost.
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY, newValue: 'dark' }));
    expect(theme()).toBe('dark');
    await screen.findByRole('button', { name: 'Appearance: Dark theme' });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY, newValue: null }));
    });
    expect(theme()).toBe('system');
    expect(screen.getByRole('button', { name: 'Appearance: Device theme' })).toBeInTheDocument();
  });

  it('the menu closes on Escape without changing the theme', async () => {
    anonymous();
    renderApp('/help');
    await userEvent.click(await screen.findByRole('button', { name: 'Appearance: Device theme' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu', { name: 'Appearance' })).not.toBeInTheDocument();
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
  });
});
