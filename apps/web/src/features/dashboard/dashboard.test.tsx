import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { formatDate, formatDateTime } from '@/lib/format.ts';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { ada, makeComment, makeDashboardVideo, signInAs } from '@/test/fixtures.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { editForm, type DashboardVideo } from './api/dashboard-api.ts';
import { UploadProgressDialog } from './components/upload-progress-dialog.tsx';
import { ViewsChart, viewsByUploadDay } from './components/views-chart.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

// jsdom decodes no media and its load() only logs 'Not implemented': the upload form's frame maker calls it when it gives up.
beforeAll(() => {
  HTMLMediaElement.prototype.load = () => undefined;
});

function serve(videos: DashboardVideo[], over: Handler = () => undefined) {
  signInAs();
  return fakeApi((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { data: { user: ada } };
    if (p === 'config') return { data: { limits: { videoMb: 1, thumbnailMb: 1, imageMb: 2, chunkBytes: 3145728 } } };
    if (p === 'dashboard/channel-stats') return { data: { stats: { totalViews: 1234, totalSubscribers: 7, totalLikes: 3, totalComments: 0, totalVideos: 2 } } };
    if (p === 'dashboard/channel-videos') return { data: { videos, page: 1, limit: 100, hasNextPage: false, nextCursor: null } };
    if (p === 'comments/held') return { data: { comments: [], page: 1, limit: 10, hasNextPage: false, nextCursor: null } };
    return undefined;
  });
}

describe('edit sends only what changed (spec §5)', () => {
  const v = { title: 'Cats', description: 'About cats', isPublished: true };
  it('builds no form when nothing changed', () => {
    expect(editForm(v, { title: ' Cats ', description: 'About cats', thumbnail: null })).toBeNull();
  });
  it('holds only the changed, trimmed fields and a new thumbnail', () => {
    const form = editForm(v, { title: ' Dogs ', description: 'About cats', thumbnail: null })!;
    expect([...form.entries()]).toEqual([['title', 'Dogs']]);
    const thumb = new File(['x'], 't.png', { type: 'image/png' });
    const withImage = editForm(v, { title: 'Cats', description: 'New', thumbnail: thumb })!;
    expect([...withImage.keys()]).toEqual(['description', 'image']);
  });
});

describe('dashboard', () => {
  it('shows the stat cards, the table with yyyy-MM-dd dates and processing states', async () => {
    serve([
      makeDashboardVideo({}),
      makeDashboardVideo({ _id: 'v2', title: 'Dogs', status: 'processing', progress: 0.4 }),
      makeDashboardVideo({ _id: 'v3', title: 'Birds', status: 'failed', failureReason: 'bad' }),
    ]);
    renderApp('/user/@ada/dashboard');
    const stats = await screen.findByRole('list', { name: 'Channel stats' });
    await waitFor(() =>
      expect(within(stats).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Total Views1.23K', 'Total Subscribers7', 'Total Likes3', 'Total Comments0']),
    );
    const table = await screen.findByRole('table', { name: 'Your videos' });
    expect(within(table).getAllByText(formatDate('2024-03-05T10:00:00.000Z'))).toHaveLength(3);
    expect(formatDate('2024-03-05T10:00:00.000Z')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(within(table).getByRole('progressbar', { name: 'Processing Dogs' })).toHaveAttribute('aria-valuenow', '40');
    expect(within(table).getByText('Processing failed')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Views by upload date/ })).toBeInTheDocument();
  });

  it('below 1024 px lists the videos as cards, not a table that scrolls sideways; every control is there', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) => ({ matches: query === '(max-width: 1023.98px)', media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList,
    );
    serve([makeDashboardVideo({}), makeDashboardVideo({ _id: 'v2', title: 'Dogs', status: 'processing', progress: 0.4, isPublished: true })]);
    renderApp('/user/@ada/dashboard');
    const list = await screen.findByRole('list', { name: 'Your videos' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [cats, dogs] = within(list).getAllByRole('listitem');
    expect(within(cats!).getByRole('link', { name: 'Cats' })).toHaveAttribute('href', '/video/v1');
    expect(within(cats!).getByRole('switch', { name: 'Publish Cats' })).toHaveAttribute('aria-checked', 'false');
    expect(within(cats!).getByText('Unpublished')).toBeInTheDocument();
    expect(within(cats!).getByText(`5 views · 2 likes · ${formatDate('2024-03-05T10:00:00.000Z')}`)).toBeInTheDocument();
    for (const name of ['Analytics for Cats', 'Edit Cats', 'Delete Cats']) expect(within(cats!).getByRole(name.startsWith('Analytics') ? 'link' : 'button', { name })).toBeInTheDocument();
    expect(within(dogs!).getByRole('progressbar', { name: 'Processing Dogs' })).toHaveAttribute('aria-valuenow', '40');
    expect(within(dogs!).getByText('Published')).toBeInTheDocument();
  });

  it('shows which qualities play yet while the others are made, and polls until they all do (ADR 019)', async () => {
    const renditions = (ready: number) => ['240p', '360p', '480p'].map((name, i) => ({ name, ready: i < ready }));
    let answers = 0;
    serve([], (url) => {
      if (url.pathname !== '/api/v1/dashboard/channel-videos') return undefined;
      answers += 1;
      const done = answers > 1;
      return { data: { videos: [makeDashboardVideo({ title: 'Owls', progress: done ? 1 : 0.3, renditions: renditions(done ? 3 : 1) })], hasNextPage: false, nextCursor: null } };
    });
    renderApp('/user/@ada/dashboard');
    const qualities = await screen.findByRole('list', { name: 'Qualities of Owls' });
    expect(within(qualities).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['240p ready', '360p in progress', '480p in progress']);
    expect(screen.getByText('Playable, 30%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Processing Owls' })).toHaveAttribute('aria-valuenow', '30');
    // The table polls while rungs are to come: the rest turn up by themselves.
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Qualities of Owls' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['240p ready', '360p ready', '480p ready']), {
      timeout: 10_000,
    });
    expect(screen.getByText('Ready')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Processing Owls' })).toBeNull();
  });

  it('flips publication with the toggle', async () => {
    const calls = serve([makeDashboardVideo({})], (url) => (url.pathname === '/api/v1/videos/v1/publish' ? { data: { video: { ...makeDashboardVideo({}), isPublished: true } }, message: 'Video published successfully' } : undefined));
    renderApp('/user/@ada/dashboard');
    const toggle = await screen.findByRole('switch', { name: 'Publish Cats' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ isPublished: true });
  });

  it('edits: nothing sent when unchanged, then only the changed title', async () => {
    const calls = serve([makeDashboardVideo({})], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'PATCH' ? { data: { video: makeDashboardVideo({}) } } : undefined));
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Cats' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit video' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Edit Cats' }));
    dialog = screen.getByRole('dialog', { name: 'Edit video' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'Cats 2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Video uploaded successfully')).toBeInTheDocument();
    expect([...(calls.find((c) => c.method === 'PATCH')!.body as FormData).entries()]).toEqual([['title', 'Cats 2']]);
  });

  it('deletes a video after confirmation', async () => {
    const calls = serve([makeDashboardVideo({})], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'DELETE' ? { data: {}, message: 'Video deleted successfully' } : undefined));
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Cats' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete video' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Video deleted successfully')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it('upload form: nothing happens with a field missing; only video files within the configured size', async () => {
    const calls = serve([]);
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Upload Video' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload Video' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Title');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('dialog', { name: 'Upload Video' })).toBeInTheDocument();

    const input = within(dialog).getByLabelText('Video file');
    await userEvent.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(await screen.findByText('Upload a video file (mp4, mov, m4v, webm, mkv, avi or 3gp)')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/v1/config')).toBe(true));
    await userEvent.upload(input, new File([new Uint8Array(1024 * 1024 + 1)], 'big.mp4', { type: 'video/mp4' }));
    expect(await screen.findByText('File size should not exceed 1MB')).toBeInTheDocument();
    await userEvent.upload(input, new File(['x'], 'ok.mp4', { type: 'video/mp4' }));
    expect(within(dialog).getByText('ok.mp4 (1.00 B)')).toBeInTheDocument();
    // Browsers often know no type for mkv: the name tells; the server checks the content.
    await userEvent.upload(input, new File(['x'], 'holiday.mkv', { type: '' }), { applyAccept: false });
    expect(within(dialog).getByText('holiday.mkv (1.00 B)')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/v1/videos')).toBe(false);
  });

  it('upload form: the title comes from the file name; the line above Upload says what is missing, read out and describing the disabled button', async () => {
    // The own image's preview needs an object URL of jsdom's File (its frames never decode here).
    const { createObjectURL, revokeObjectURL } = URL;
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined });
    onTestFinished(() => void Object.assign(URL, { createObjectURL, revokeObjectURL }));
    serve([]);
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Upload Video' }));
    const dialog = screen.getByRole('dialog', { name: 'Upload Video' });
    const hint = within(dialog).getByRole('status');
    const upload = within(dialog).getByRole('button', { name: 'Upload' });
    const expectHint = (text: string) => {
      expect(hint).toHaveTextContent(text);
      expect(upload).toBeDisabled();
      expect(upload).toHaveAccessibleDescription(text);
    };
    expectHint('To upload, choose a video file, choose a thumbnail, add a title, and add a description.');

    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.upload(within(dialog).getByLabelText('Video file'), new File(['x'], 'my_first-video.mp4', { type: 'video/mp4' }));
    expect(title).toHaveValue('my first video');
    expectHint('To upload, choose a thumbnail and add a description.');
    expect(within(dialog).getByText('Taking frames from the video…')).toBeInTheDocument();
    // Another file: the title made from the first name follows; one the person typed stays.
    await userEvent.upload(within(dialog).getByLabelText('Video file'), new File(['x'], 'Second.Take.mov', { type: 'video/quicktime' }));
    expect(title).toHaveValue('Second Take');
    await userEvent.clear(title);
    expectHint('To upload, choose a thumbnail, add a title, and add a description.');
    await userEvent.type(title, 'Cats at play');
    await userEvent.upload(within(dialog).getByLabelText('Video file'), new File(['x'], 'third.mp4', { type: 'video/mp4' }));
    expect(title).toHaveValue('Cats at play');

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Two cats.');
    expectHint('To upload, choose a thumbnail.');
    const ownImage = dialog.querySelector<HTMLInputElement>('input[type="file"][accept="image/png,image/jpeg"]')!;
    await userEvent.upload(ownImage, new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' }));
    expect(within(dialog).getByRole('radio', { name: 'Your image' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Change your image' })).toBeInTheDocument();
    expect(hint).toHaveTextContent('Ready to upload.');
    expect(upload).toBeEnabled();
    expect(upload).not.toHaveAttribute('aria-describedby');
  });

  it('says why uploads cannot work when the server has no usable media engine, and opens no form', async () => {
    const reason = 'Video processing is unavailable on this server: encoder libx264';
    serve([], (url) => (url.pathname === '/api/v1/config' ? { data: { uploads: { available: false, reason }, limits: { videoMb: 1, thumbnailMb: 1, imageMb: 2, chunkBytes: 3145728 } } } : undefined));
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByRole('alert')).toHaveTextContent(reason);
    await userEvent.click(screen.getByRole('button', { name: 'Upload Video' }));
    expect(screen.queryByRole('dialog', { name: 'Upload Video' })).toBeNull();
    expect(screen.getAllByText(reason).length).toBeGreaterThan(1);
  });

  it('sums views per upload day for the chart', () => {
    const days = viewsByUploadDay([
      { createdAt: '2024-03-06T12:00:00', views: 1 },
      { createdAt: '2024-03-05T12:00:00', views: 2 },
      { createdAt: '2024-03-05T13:00:00', views: 3 },
    ]);
    expect(days).toEqual([
      { day: '2024-03-05', views: 5 },
      { day: '2024-03-06', views: 1 },
    ]);
  });

  it('says so when no video has a view yet, instead of drawing empty bars alone', () => {
    const { rerender } = render(<ViewsChart videos={[{ createdAt: '2024-03-05T12:00:00', views: 0 }]} />);
    expect(screen.getByText('No views yet')).toBeInTheDocument();
    rerender(<ViewsChart videos={[{ createdAt: '2024-03-05T12:00:00', views: 4 }]} />);
    expect(screen.queryByText('No views yet')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Views by upload date: Mar 5, 2024: 4 views' })).toBeInTheDocument();
  });

  it('labels its days short and in the language, in date order (French: no "/2024", no "1 vues")', async () => {
    await setLocale('fr');
    const videos = [
      { createdAt: '2024-03-10T12:00:00', views: 1 },
      { createdAt: '2024-02-28T12:00:00', views: 2500 },
    ];
    // jsdom lays nothing out: a 400 px row and 60 px labels, so both days' labels fit.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(400);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width: 60 } as DOMRect);
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    const { container } = render(<ViewsChart videos={videos} />);
    const labels = [...container.querySelectorAll('[data-testid="axis-labels"] span:not(.invisible)')].map((s) => s.textContent!.replace(/[\u00a0\u202f]/g, ' '));
    expect(labels).toEqual(['28 févr.', '10 mars']);
    expect(container.textContent).not.toMatch(/\/2024|2024-/);
    const chart = screen.getByRole('img');
    expect(chart.getAttribute('aria-label')!.replace(/[\u00a0\u202f]/g, ' ')).toBe('Vues par date de mise en ligne : 28 févr. 2024 : 2,50 k vues, 10 mars 2024 : 1 vue');
  });
});

describe('upload progress dialog', () => {
  const request = { file: new File([new Uint8Array(2048)], 'clip.mp4', { type: 'video/mp4' }), thumbnail: new File(['x'], 't.png'), title: 't', description: 'd', privacy: { privacy: 'private' } };

  it('shows percent, name and size; Finish waits for 100%; Hide closes', async () => {
    const onHide = vi.fn();
    const onFinish = vi.fn();
    const { rerender } = render(
      <>
        <UploadProgressDialog job={{ request, percent: 42, state: 'uploading' }} onHide={onHide} onFinish={onFinish} onRetry={() => undefined} />
        <Toaster />
      </>,
    );
    expect(screen.getByText('clip.mp4')).toBeInTheDocument();
    expect(screen.getByText('2.05 KB')).toBeInTheDocument();
    expect(screen.getByText('42%')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByText('Please wait for the video to finish uploading.')).toBeInTheDocument();
    expect(onFinish).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(onHide).toHaveBeenCalled();
    rerender(
      <>
        <UploadProgressDialog job={{ request, percent: 100, state: 'done' }} onHide={onHide} onFinish={onFinish} onRetry={() => undefined} />
        <Toaster />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));
    expect(onFinish).toHaveBeenCalled();
  });
});

describe('creator moderation in the dashboard', () => {
  const heldComment = makeComment('c1', { content: 'spoiler: he wins', owner: { _id: 'u-bob', userName: 'bob', fullName: 'Bob', avatar: null }, state: 'held' });

  it('lists held comments with Approve and Delete; the list empties once reviewed', async () => {
    let held = [heldComment];
    const calls = serve([makeDashboardVideo({})], (url, init) => {
      if (url.pathname === '/api/v1/comments/held') return { data: { comments: held, page: 1, limit: 10, hasNextPage: false, nextCursor: null } };
      if (url.pathname === '/api/v1/comments/c1/approve' && init.method === 'POST') {
        held = [];
        return { data: { ...heldComment, state: 'published' }, message: 'Comment approved' };
      }
      return undefined;
    });
    renderApp('/user/@ada/dashboard');
    const section = await screen.findByRole('region', { name: 'Held comments' });
    expect(await within(section).findByText('spoiler: he wins')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'View video' })).toHaveAttribute('href', '/video/v1');
    await userEvent.click(within(section).getByRole('button', { name: 'Approve comment by Bob' }));
    expect(await within(section).findByRole('region', { name: 'No held comments' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/v1/comments/c1/approve')).toBe(true);
  });

  it('turns comments off in the edit dialog: only that field is sent', async () => {
    const calls = serve([makeDashboardVideo({ commentsEnabled: true })], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'PATCH' ? { data: { video: makeDashboardVideo({}) } } : undefined));
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Cats' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit video' });
    const allow = within(dialog).getByRole('checkbox', { name: 'Allow comments' });
    expect(allow).toBeChecked();
    await userEvent.click(allow);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect([...(calls.find((c) => c.method === 'PATCH')!.body as FormData).entries()]).toEqual([['commentsEnabled', 'false']]);
  });
});

describe('storage against the quota (issue #12 item 7)', () => {
  const usage = (quotaBytes: number | null, usedBytes = 1_234_000_000) => ({
    usedBytes,
    quotaBytes,
    remainingBytes: quotaBytes === null ? null : Math.max(0, quotaBytes - usedBytes),
    dailyUsedBytes: 0,
    dailyQuotaBytes: null,
  });

  it('shows used and remaining with a bar', async () => {
    serve([], (url) => (url.pathname === '/api/v1/users/me/storage' ? { data: usage(5_000_000_000) } : undefined));
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByText('1.23 GB of 5.00 GB used · 3.77 GB left')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Storage used' })).toHaveAttribute('aria-valuenow', '25');
  });

  it('says the quota is used up when nothing is left', async () => {
    serve([], (url) => (url.pathname === '/api/v1/users/me/storage' ? { data: usage(1_000_000_000) } : undefined));
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByText('Your upload quota is used up: delete videos to upload new ones.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Storage used' })).toHaveAttribute('aria-valuenow', '100');
  });

  it('shows only what is used when there is no quota', async () => {
    serve([], (url) => (url.pathname === '/api/v1/users/me/storage' ? { data: usage(null) } : undefined));
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByText('Storage: 1.23 GB used')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Storage used' })).toBeNull();
  });

  it("the upload dialog shows the server's quota refusal", () => {
    const request = { file: new File([new Uint8Array(2048)], 'clip.mp4', { type: 'video/mp4' }), thumbnail: new File(['x'], 't.png'), title: 't', description: 'd', privacy: { privacy: 'private' } };
    const message = 'Your upload quota is used up: 4.8 GB of 5 GB';
    render(<UploadProgressDialog job={{ request, percent: 0, state: 'failed', error: message }} onHide={() => undefined} onFinish={() => undefined} onRetry={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Upload failed' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
  });
});

describe('privacy (issue #13 item 1) and downloads (item 5)', () => {
  const patched = (calls: ReturnType<typeof serve>) => [...(calls.find((c) => c.method === 'PATCH')!.body as FormData).entries()];

  it('shows each video\'s privacy in the table, and the scheduled time', async () => {
    serve([
      makeDashboardVideo({ isPublished: true, privacy: 'public' }),
      makeDashboardVideo({ _id: 'v2', title: 'Dogs', privacy: 'unlisted' }),
      makeDashboardVideo({ _id: 'v3', title: 'Birds', privacy: 'private' }),
      makeDashboardVideo({ _id: 'v4', title: 'Fish', privacy: 'private', publishAt: '2030-01-02T03:04:00.000Z' }),
    ]);
    renderApp('/user/@ada/dashboard');
    const table = await screen.findByRole('table', { name: 'Your videos' });
    for (const label of ['Published', 'Unlisted', 'Unpublished', `Scheduled for ${formatDateTime('2030-01-02T03:04:00.000Z')}`]) {
      expect(within(table).getByText(label)).toBeInTheDocument();
    }
  });

  it('makes a video unlisted and allows downloads from the edit dialog: only those fields are sent', async () => {
    const calls = serve([makeDashboardVideo({ privacy: 'private' })], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'PATCH' ? { data: { video: makeDashboardVideo({}) } } : undefined));
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Cats' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit video' });
    expect(within(dialog).getByRole('radio', { name: /^Private/ })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('radio', { name: /^Unlisted/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Allow viewers to download' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(patched(calls)).toEqual([
      ['downloadsEnabled', 'true'],
      ['privacy', 'unlisted'],
    ]);
  });

  it('schedules a publication: a time is required, then sent as an ISO time', async () => {
    const calls = serve([makeDashboardVideo({ privacy: 'private' })], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'PATCH' ? { data: { video: makeDashboardVideo({}) } } : undefined));
    renderApp('/user/@ada/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Cats' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit video' });
    await userEvent.click(within(dialog).getByRole('radio', { name: /^Scheduled/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose when the video is published')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    await userEvent.type(within(dialog).getByLabelText('Publish on'), '2030-06-01T12:30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(patched(calls)).toEqual([['publishAt', new Date('2030-06-01T12:30').toISOString()]]);
  });
});

