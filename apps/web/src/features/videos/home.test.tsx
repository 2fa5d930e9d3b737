import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVideo, visibleIntersectionObserver } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

describe('home', () => {
  it('loads 10 videos per page sorted by views and the next page with the cursor when scrolled to the end', async () => {
    vi.stubGlobal('IntersectionObserver', visibleIntersectionObserver());
    const calls = fakeApi((url) => {
      if (url.pathname !== '/api/v1/videos') return url.pathname.endsWith('/users/me') ? { status: 401, message: 'x' } : undefined;
      const second = url.searchParams.get('cursor') === 'c2';
      const videos = Array.from({ length: second ? 3 : 10 }, (_, i) => makeVideo(second ? 11 + i : i + 1));
      // Spec §7's "data list": the items at data.data.
      return { data: { data: videos, page: second ? 2 : 1, limit: 10, hasNextPage: !second, nextCursor: second ? null : 'c2' } };
    });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Video 13' })).toBeInTheDocument();
    const videoCalls = calls.filter((c) => c.url.pathname === '/api/v1/videos');
    expect(videoCalls).toHaveLength(2);
    expect(Object.fromEntries(videoCalls[0]!.url.searchParams)).toEqual({ limit: '10', sortBy: 'views' });
    expect(videoCalls[1]!.url.searchParams.get('cursor')).toBe('c2');
    expect(screen.getAllByRole('article')).toHaveLength(13);
    // Duration badge, views and the channel link.
    expect(screen.getAllByText('2:05')).toHaveLength(13);
    expect(screen.getAllByRole('link', { name: 'Ada Lovelace' })[0]).toHaveAttribute('href', '/channel/@ada/videos');
  });

  it('shows the empty state when there are no videos', async () => {
    fakeApi((url) => (url.pathname === '/api/v1/videos' ? { data: { data: [], hasNextPage: false, nextCursor: null } } : undefined));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'No videos found' })).toBeInTheDocument();
  });
});
