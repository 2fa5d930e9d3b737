import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi } from '@/test/render.tsx';
import { EmbedPage, embedOptions } from './embed-page.tsx';

const at = (url: string) => new URL(url, 'http://localhost');

describe('embed page', () => {
  it('reads start (or t), autoplay and loop from its URL', () => {
    expect(embedOptions(at('/embed/v1'))).toEqual({ videoId: 'v1', start: null, autoplay: false, loop: false });
    expect(embedOptions(at('/embed/v1?start=90&autoplay=1&loop=1'))).toEqual({ videoId: 'v1', start: 90, autoplay: true, loop: true });
    expect(embedOptions(at('/embed/v1?t=1m30s'))).toMatchObject({ start: 90 });
    expect(embedOptions(at('/embed/v1?start=soon&autoplay=yes'))).toMatchObject({ start: null, autoplay: false });
  });

  it('plays the video muted on autoplay, looping, titled with a link to its watch page in a new tab', async () => {
    const calls = fakeApi((url) => (url.pathname === '/api/v1/videos/v1' ? { data: { video: makeVideo(1, { title: 'Glacier walk' }) } } : undefined));
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    render(<EmbedPage location={at('/embed/v1?autoplay=1&loop=1')} />);
    const link = await screen.findByRole('link', { name: 'Glacier walk' });
    expect(link).toHaveAttribute('href', '/video/v1');
    expect(link).toHaveAttribute('target', '_blank');
    const video = screen.getByLabelText('Glacier walk', { selector: 'video' }) as HTMLVideoElement;
    expect([video.autoplay, video.muted, video.loop]).toEqual([true, true, true]);
    // Set by an effect after the commit that showed the link: under load it can come a tick later.
    await waitFor(() => expect(document.title).toBe('Glacier walk'));
    // No session in a framed page: the video is asked for anonymously.
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/v1/videos/v1']);
  });

  it('waits for a click without autoplay', async () => {
    fakeApi(() => ({ data: { video: makeVideo(1) } }));
    render(<EmbedPage location={at('/embed/v1')} />);
    const video = (await screen.findByLabelText('Video 1', { selector: 'video' })) as HTMLVideoElement;
    expect([video.autoplay, video.muted, video.loop]).toEqual([false, false, false]);
  });

  it('says the video is unavailable when the API does not give it, or it cannot play yet', async () => {
    fakeApi(() => ({ status: 404, message: 'Video not found' }));
    const { unmount } = render(<EmbedPage location={at('/embed/gone')} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This video is unavailable');
    unmount();
    fakeApi(() => ({ data: { video: makeVideo(1, { status: 'processing', videoFile: { publicId: 'v1', url: null } }) } }));
    render(<EmbedPage location={at('/embed/v1')} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This video is unavailable');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
