import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

const instance = (name: string) => ({ name, description: '', registrationMode: 'open', maxVideoMinutes: 60 });
const config = { limits: { videoMb: 1, thumbnailMb: 1, imageMb: 1, chunkBytes: 1 }, uploads: { available: true } };

describe('useDocumentTitle', () => {
  it('titles each page "<title> - <instance name>", and "Glimpse" before the config says otherwise', async () => {
    let answer: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    fakeApi(async (url) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'config') {
        await held;
        return { data: { ...config, instance: instance('My Tube') } };
      }
      return undefined;
    });
    renderApp('/help');
    await waitFor(() => expect(document.title).toBe('Help - Glimpse'));
    answer!();
    await waitFor(() => expect(document.title).toBe('Help - My Tube'));
  });

  it("titles the watch page with the video's title once it loads, and the search page with the search", async () => {
    fakeApi((url) => {
      const p = url.pathname.replace('/api/v1/', '');
      if (p === 'config') return { data: { ...config, instance: instance('My Tube') } };
      if (p === 'videos/v1') return { data: { video: makeVideo(1, { title: 'Glacier walk' }) } };
      if (p === 'videos/v1/similar') return { data: { videos: [] } };
      if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
      if (p === 'videos') return { data: { data: [], page: 1, limit: 10, hasNextPage: false, nextCursor: null } };
      return undefined;
    });
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const { router } = renderApp('/video/v1');
    await screen.findByRole('heading', { name: 'Glacier walk', level: 1 });
    await waitFor(() => expect(document.title).toBe('Glacier walk - My Tube'));
    await router.navigate('/search?searchText=cats');
    await waitFor(() => expect(document.title).toBe('cats - Search - My Tube'));
    await router.navigate('/nowhere');
    await waitFor(() => expect(document.title).toBe('Page not available - My Tube'));
  });
});
