import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';
import { ada, makeDashboardVideo, signInAs } from '@/test/fixtures.ts';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const video = makeDashboardVideo();
const english = { lang: 'en', label: 'English', url: '/media/videos/v1/pub-x/captions/en-1.vtt' };

function serve(captions: (typeof english)[]) {
  signInAs();
  return fakeApi((url, init) => {
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { data: { user: ada } };
    if (p === 'config') return { data: { limits: { videoMb: 1, thumbnailMb: 1, imageMb: 2, chunkBytes: 3145728 } } };
    if (p === 'dashboard/channel-videos') return { data: { videos: [video], page: 1, limit: 100, hasNextPage: false, nextCursor: null } };
    if (p === 'videos/v1/captions') return { data: { captions } };
    if (p === 'videos/v1/captions/fr' && init.method === 'POST') return { status: 400, message: 'Line 2: invalid end time "00:00:99,000"' };
    if (p === 'videos/v1/captions/en' && init.method === 'DELETE') {
      captions.splice(0);
      return { data: { lang: 'en' } };
    }
    if (p === 'videos/v1/captions/en' && init.method === 'POST') {
      captions.push(english);
      return { data: { captions } };
    }
    return undefined;
  });
}

async function openCaptions() {
  renderApp('/user/@ada/dashboard');
  await userEvent.click(await screen.findByRole('button', { name: 'Edit Cats' }));
  return within(screen.getByRole('dialog', { name: 'Edit video' })).getByRole('region', { name: 'Captions' });
}

describe('captions in the edit dialog', () => {
  it('uploads an SRT with its language and label, then deletes it', async () => {
    const calls = serve([]);
    const section = await openCaptions();
    expect(await within(section).findByText('No captions yet. Add an SRT or WebVTT file below.')).toBeInTheDocument();
    await userEvent.upload(within(section).getByLabelText('Caption file (SRT or WebVTT)'), new File(['1\n00:00:01,000 --> 00:00:02,000\nHi\n'], 'en.srt'));
    await userEvent.type(within(section).getByLabelText('Language tag'), 'en');
    await userEvent.type(within(section).getByLabelText('Caption label'), 'English');
    await userEvent.click(within(section).getByRole('button', { name: 'Upload captions' }));
    expect(await within(section).findByRole('button', { name: 'Delete English captions' })).toBeInTheDocument();
    const sent = calls.find((c) => c.method === 'POST')!;
    expect(sent.url.pathname).toBe('/api/v1/videos/v1/captions/en');
    expect((sent.body as FormData).get('label')).toBe('English');
    expect(((sent.body as FormData).get('file') as File).name).toBe('en.srt');

    await userEvent.click(within(section).getByRole('button', { name: 'Delete English captions' }));
    expect(await within(section).findByText('No captions yet. Add an SRT or WebVTT file below.')).toBeInTheDocument();
  });

  it("shows the server's message for a bad file, and checks the tag before sending", async () => {
    const calls = serve([]);
    const section = await openCaptions();
    await userEvent.upload(within(section).getByLabelText('Caption file (SRT or WebVTT)'), new File(['bad'], 'fr.srt'));
    await userEvent.type(within(section).getByLabelText('Language tag'), 'French!');
    await userEvent.type(within(section).getByLabelText('Caption label'), 'Français');
    await userEvent.click(within(section).getByRole('button', { name: 'Upload captions' }));
    expect(within(section).getByRole('alert')).toHaveTextContent('Language must be a BCP 47 tag such as en or pt-BR');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.clear(within(section).getByLabelText('Language tag'));
    await userEvent.type(within(section).getByLabelText('Language tag'), 'fr');
    await userEvent.click(within(section).getByRole('button', { name: 'Upload captions' }));
    await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent('Line 2: invalid end time "00:00:99,000"'));
  });
});
