import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { initLocale, preferredLocale, setLocale } from '@/lib/i18n/i18n.ts';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

/** An anonymous visitor; home lists two videos, the watch page shows video 1. */
function api() {
  fakeApi((url) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { status: 401, message: 'Please login' };
    if (p === 'videos') return { data: { data: [makeVideo(1, { views: 1 }), makeVideo(2, { views: 1500 })], hasNextPage: false, nextCursor: null } };
    if (p === 'videos/v1') return { data: { video: makeVideo(1) } };
    if (p === 'videos/v1/similar') return { data: { videos: [makeVideo(2)] } };
    if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
    return undefined;
  });
}

describe('language switch (ADR 021)', () => {
  it('turns the shell and home into French for an anonymous visitor, remembers it and sets <html lang>', async () => {
    api();
    renderApp('/');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(await screen.findByText(/^1 view · 1 hour ago$/)).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Liked videos' })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getAllByRole('combobox', { name: 'Language' })[0]!, 'fr');

    const nav = await screen.findByRole('navigation', { name: 'Menu principal' });
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Accueil',
      'Abonnements',
      'Votre chaîne',
      'Playlists',
      'Historique',
      "Vidéos « J'aime »",
      'Aide',
      'Paramètres',
      'À propos',
    ]);
    expect(screen.getByRole('searchbox', { name: 'Rechercher' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Se connecter' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aller au contenu' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Vidéos tendance' })).toBeInTheDocument();
    // Counts and ages in French.
    expect(screen.getByText(/^1 vue · il y a 1 heure$/)).toBeInTheDocument();
    expect(screen.getByText(/^1,50\sk vues · il y a 1 heure$/)).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
    expect(localStorage.getItem('glimpse.locale')).toBe('fr');

    await userEvent.selectOptions(screen.getAllByRole('combobox', { name: 'Langue' })[0]!, 'es');
    expect(await screen.findByRole('navigation', { name: 'Menú principal' })).toBeInTheDocument();
    expect(screen.getByText(/^1 visualización · hace 1 hora$/)).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('es');
  });

  it('shows the watch page in French', async () => {
    api();
    await setLocale('fr');
    renderApp('/video/v1');
    expect(await screen.findByRole('heading', { name: 'Video 1', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "S'abonner" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Partager' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^J'aime, \d/ })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Lecteur vidéo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lecture' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Vitesse de lecture' })).toBeInTheDocument();
    expect(screen.getByText('10 abonnés')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Vidéos similaires' })).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'À suivre' })).toBeInTheDocument();
  });

  it('shows the help page in French and in Spanish', async () => {
    api();
    await setLocale('fr');
    renderApp('/help');
    expect(await screen.findByRole('heading', { name: 'Aide', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Compte', 'Gestion des vidéos', 'Regarder', 'Dépannage']);
    expect(screen.getByText('Comment créer un compte ?')).toBeInTheDocument();
    await setLocale('es');
    expect(await screen.findByRole('heading', { name: 'Ayuda', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('¿Cómo subo un video?')).toBeInTheDocument();
  });

  it('starts from the stored choice, else the browser language, else English', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-MX', 'en']);
    expect(preferredLocale()).toBe('es');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    expect(preferredLocale()).toBe('en');
    localStorage.setItem('glimpse.locale', 'fr');
    expect(preferredLocale()).toBe('fr');
    await initLocale();
    await waitFor(() => expect(document.documentElement.lang).toBe('fr'));
  });
});
