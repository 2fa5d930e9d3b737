import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { VideoCard } from '@/components/media/video-card.tsx';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session.ts';
import { makeVideo, owner } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import type { Video } from '@/types/api.ts';

/** The watch page of `v1` as `viewer` sees it (the owner is `o1`). */
function watch(video: Partial<Video>, viewer: 'owner' | 'other') {
  const user = viewer === 'owner' ? { ...owner, _id: owner._id } : { _id: 'me', userName: 'me', fullName: 'Me', avatar: null };
  session.setAccessToken('T');
  session.setUser({ userId: user._id, userName: user.userName, fullName: user.fullName, email: 'x@x.io', avatar: null, cover: null });
  fakeApi((url) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { data: { user: { ...user, email: 'x@x.io', coverImage: null } } };
    if (p === 'videos/v1') return { data: { video: makeVideo(1, video) } };
    if (p === 'videos/v1/similar') return { data: { videos: [] } };
    if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
    return undefined;
  });
  renderApp('/video/v1');
}

describe('watch page: privacy badge and downloads', () => {
  it('tells the owner the video is unlisted, and offers the original', async () => {
    watch({ privacy: 'unlisted', isPublished: false }, 'owner');
    expect(await screen.findByText('Unlisted')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download original' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });

  it('tells the owner a scheduled video is scheduled', async () => {
    watch({ privacy: 'private', isPublished: false, publishAt: '2030-01-01T00:00:00.000Z' }, 'owner');
    expect(await screen.findByText('Scheduled')).toBeInTheDocument();
  });

  it('shows viewers no badge, and a Download link only when the owner allows downloads', async () => {
    watch({ privacy: 'unlisted', isPublished: false, downloadsEnabled: true }, 'other');
    expect(await screen.findByRole('link', { name: 'Download' })).toHaveAttribute('href', '/api/v1/videos/video/v1.mp4?download=1');
    expect(screen.queryByText('Unlisted')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download original' })).toBeNull();
  });

  it('offers viewers no download when the owner does not allow it', async () => {
    watch({ downloadsEnabled: false }, 'other');
    expect(await screen.findByRole('heading', { name: 'Video 1', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
  });
});

describe('video tiles of the owner\'s lists', () => {
  it.each([
    [{ privacy: 'unlisted' as const, isPublished: false }, 'Unlisted'],
    [{ privacy: 'private' as const, isPublished: false }, 'Unpublished'],
  ])('say when a video is not public', (over, badge) => {
    render(
      <MemoryRouter>
        <VideoCard video={makeVideo(1, over)} />
      </MemoryRouter>,
    );
    expect(screen.getAllByText(badge)[0]).toBeInTheDocument();
  });
});
