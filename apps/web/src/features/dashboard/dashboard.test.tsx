import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/lib/format.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { editForm, type DashboardVideo } from './api/dashboard-api.ts';
import { UploadProgressDialog } from './components/upload-progress-dialog.tsx';
import { ViewsChart, viewsByUploadDay } from './components/views-chart.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

const ada = { _id: 'u-ada', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };
const owner = { _id: ada._id, userName: 'ada', fullName: ada.fullName, avatar: null };
const video = (over: Partial<DashboardVideo>): DashboardVideo => ({
  _id: 'v1',
  title: 'Cats',
  description: 'About cats',
  thumbnail: null,
  duration: 10,
  views: 5,
  likes: 2,
  dislikes: 0,
  isPublished: false,
  status: 'ready',
  progress: 1,
  createdAt: '2024-03-05T10:00:00.000Z',
  updatedAt: '2024-03-05T10:00:00.000Z',
  owner,
  ...over,
});

function serve(videos: DashboardVideo[], over: Handler = () => undefined) {
  session.setAccessToken('T');
  session.setUser({ userId: ada._id, userName: 'ada', fullName: ada.fullName, email: ada.email, avatar: null, cover: null });
  return fakeApi((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    const p = url.pathname.replace('/api/v1/', '');
    if (p === 'users/me') return { data: { user: ada } };
    if (p === 'config') return { data: { limits: { videoMb: 1, thumbnailMb: 1, imageMb: 2, chunkBytes: 3145728 } } };
    if (p === 'dashboard/channel-stats') return { data: { totalViews: 1234, totalSubscribers: 7, totalLikes: 3, totalComments: 0 } };
    if (p === 'dashboard/channel-videos') return { data: { videos, page: 1, limit: 100, hasNextPage: false, nextCursor: null } };
    return undefined;
  });
}

describe('edit sends only what changed (spec §5)', () => {
  const v = { title: 'Cats', description: 'About cats' };
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
      video({}),
      video({ _id: 'v2', title: 'Dogs', status: 'processing', progress: 0.4 }),
      video({ _id: 'v3', title: 'Birds', status: 'failed', failureReason: 'bad' }),
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

  it('flips publication with the toggle', async () => {
    const calls = serve([video({})], (url) => (url.pathname === '/api/v1/videos/v1/publish' ? { data: { isPublished: true }, message: 'Video published successfully' } : undefined));
    renderApp('/user/@ada/dashboard');
    const toggle = await screen.findByRole('switch', { name: 'Publish Cats' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ isPublished: true });
  });

  it('edits: nothing sent when unchanged, then only the changed title', async () => {
    const calls = serve([video({})], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'PATCH' ? { data: {} } : undefined));
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
    const calls = serve([video({})], (url, init) => (url.pathname === '/api/v1/videos/v1' && init.method === 'DELETE' ? { data: {}, message: 'Video deleted successfully' } : undefined));
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
    expect(screen.getByRole('img', { name: 'Views by upload date: 2024-03-05: 4' })).toBeInTheDocument();
  });
});

describe('upload progress dialog', () => {
  const request = { file: new File([new Uint8Array(2048)], 'clip.mp4', { type: 'video/mp4' }), thumbnail: new File(['x'], 't.png'), title: 't', description: 'd' };

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
    expect(screen.getByText('2.00 KB')).toBeInTheDocument();
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
