import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeVideo } from '@/test/fixtures.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

function watch() {
  fakeApi((url) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'videos/v1') return { data: { video: makeVideo(1, { title: 'Cats "&" <dogs>', duration: 125 }) } };
    if (p === 'videos/v1/similar') return { data: { videos: [] } };
    if (p === 'comments/video/v1') return { data: { comments: [], hasNextPage: false, nextCursor: null } };
    return undefined;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  renderApp('/video/v1');
}

const origin = window.location.origin;

describe('Share dialog on the watch page', () => {
  it('shows the link and the embed code, starts at the player time when asked, and copies each', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    watch();
    const share = await screen.findByRole('button', { name: 'Share' });
    const video = screen.getByLabelText('Cats "&" <dogs>', { selector: 'video' }) as HTMLVideoElement;
    video.currentTime = 65.7;
    fireEvent.timeUpdate(video);
    await userEvent.click(share);

    const dialog = screen.getByRole('dialog', { name: 'Share' });
    const link = within(dialog).getByRole('textbox', { name: 'Link' });
    const code = within(dialog).getByRole('textbox', { name: 'Embed code' });
    expect(link).toHaveFocus();
    expect(link).toHaveValue(`${origin}/video/v1`);
    expect(code).toHaveValue(
      `<iframe src="${origin}/embed/v1" width="560" height="315" title="Cats &quot;&amp;&quot; &lt;dogs&gt;" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
    );

    // Keyboard only: Tab to the checkbox, Space ticks it.
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Copy link' })).toHaveFocus();
    await userEvent.tab();
    const start = within(dialog).getByRole('checkbox', { name: 'Start at 1:05' });
    expect(start).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(start).toBeChecked();
    expect(link).toHaveValue(`${origin}/video/v1?t=65`);
    expect((code as HTMLTextAreaElement).value).toContain(`src="${origin}/embed/v1?start=65"`);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenLastCalledWith(`${origin}/video/v1?t=65`);
    expect(within(dialog).getByText('Link copied')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy embed code' }));
    expect(writeText).toHaveBeenLastCalledWith((code as HTMLTextAreaElement).value);
    expect(within(dialog).getByText('Embed code copied')).toBeInTheDocument();

    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(share).toHaveFocus();
  });

  it('selects the text to copy by hand when the clipboard is refused; no start time at 0:00', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: vi.fn().mockRejectedValue(new Error('denied')) } });
    watch();
    await userEvent.click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = screen.getByRole('dialog', { name: 'Share' });
    expect(within(dialog).getByRole('checkbox', { name: 'Start at 0:00' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy embed code' }));
    expect(await within(dialog).findByText(/press Ctrl\+C/)).toBeInTheDocument();
    const code = within(dialog).getByRole('textbox', { name: 'Embed code' }) as HTMLTextAreaElement;
    expect([code.selectionStart, code.selectionEnd]).toEqual([0, code.value.length]);
  });
});
