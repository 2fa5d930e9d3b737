import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { DEFAULT_INSTANCE } from '@/lib/public-config.ts';
import { makeChannel, makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { applyFilter, defaultFilters } from './api/search-api.ts';

describe('applyFilter', () => {
  it('changing the type resets the other filters', () => {
    const f = applyFilter(applyFilter(defaultFilters, 'duration', 'long'), 'sortBy', 'views');
    expect(f).toEqual({ uploadDate: 'anytime', type: 'video', duration: 'long', sortBy: 'views' });
    expect(applyFilter(f, 'type', 'channel')).toEqual({ ...defaultFilters, type: 'channel' });
  });
  it('playlist and channel searches keep the others at their defaults', () => {
    const f = applyFilter(defaultFilters, 'type', 'playlist');
    expect(applyFilter(f, 'uploadDate', 'today')).toEqual(f);
  });
});

describe('search page', () => {
  const bob = makeChannel({ subscriberCount: 1500, videoCount: 3 });
  const server = () =>
    fakeApi((url) => {
      if (url.pathname !== '/api/v1/videos') return undefined;
      const type = url.searchParams.get('type');
      if (type === 'channel')
        return { data: { data: [bob], hasNextPage: false, nextCursor: null } };
      // Every search type answers its items at data.data (spec §7's "data list").
      if (type === 'playlist') return { data: { data: [], hasNextPage: false, nextCursor: null } };
      return { data: { data: [makeVideo(1, { title: 'Cats in space' })], hasNextPage: false, nextCursor: null } };
    });

  it('queries with the search text and filters; shows rows; changing type resets the filters', async () => {
    const calls = server();
    renderApp('/search?searchText=cats&t=1');
    expect(await screen.findByRole('link', { name: 'Cats in space' })).toBeInTheDocument();
    const last = () => Object.fromEntries(calls.filter((c) => c.url.pathname === '/api/v1/videos').at(-1)!.url.searchParams);
    expect(last()).toMatchObject({ query: 'cats', type: 'video', sortBy: 'relevance', duration: 'any', uploadDate: 'anytime', limit: '10' });

    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    for (const label of ['Anytime', 'Today', 'This week', 'This month', 'This year', 'Video', 'Playlist', 'Channel', 'Any', 'Under 4 minutes', '5-15 minutes', 'Over 15 minutes', 'Relevance', 'Upload date', 'View count'])
      expect(screen.getByRole('button', { name: label })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Under 4 minutes' }));
    await userEvent.click(screen.getByRole('button', { name: 'This week' }));
    await screen.findByRole('link', { name: 'Cats in space' });
    expect(last()).toMatchObject({ duration: 'short', uploadDate: 'thisWeak' });
    expect(screen.getByRole('button', { name: 'Under 4 minutes' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Channel' }));
    const row = await screen.findByRole('link', { name: /Bob Cat/ });
    expect(row).toHaveAttribute('href', '/channel/@bob/videos');
    expect(within(row).getByText('@bob · 1.50K subscribers · 3 videos')).toBeInTheDocument();
    expect(last()).toMatchObject({ type: 'channel', duration: 'any', uploadDate: 'anytime', sortBy: 'relevance' });
    expect(screen.getByRole('button', { name: 'Under 4 minutes' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Under 4 minutes' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Playlist' }));
    expect(await screen.findByRole('heading', { name: 'No playlists found' })).toBeInTheDocument();
  });

  it('does nothing without search text', async () => {
    const calls = server();
    renderApp('/search?searchText=%20%20');
    expect(await screen.findByRole('heading', { name: 'Search Glimpse' })).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname === '/api/v1/videos')).toHaveLength(0);
  });

  it('counts a playlist\'s videos in the language', async () => {
    const playlist = { _id: 'p1', name: 'Road trip', noOfVideos: 1, videoId: 'v1', thumbnail: null, owner: { userName: 'bob', fullName: 'Bob Cat' }, createdAt: '', updatedAt: new Date().toISOString() };
    fakeApi((url) => (url.pathname === '/api/v1/videos' ? { data: { data: [playlist], hasNextPage: false, nextCursor: null } } : undefined));
    await setLocale('fr');
    renderApp('/search?searchText=road&t=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Filtres' }));
    await userEvent.click(screen.getByRole('button', { name: 'Playlist' }));
    const row = await screen.findByRole('link', { name: /Road trip/ });
    expect(within(row).getByText('1 vidéo')).toBeInTheDocument();
    expect(within(row).getByText('Bob Cat · Playlist')).toBeInTheDocument();
  });

  it("names the instance's own name", async () => {
    fakeApi((url) => (url.pathname === '/api/v1/config' ? { data: { instance: { ...DEFAULT_INSTANCE, name: 'Ciné Club' } } } : undefined));
    renderApp('/search');
    expect(await screen.findByRole('heading', { name: 'Search Ciné Club' })).toBeInTheDocument();
  });
});
