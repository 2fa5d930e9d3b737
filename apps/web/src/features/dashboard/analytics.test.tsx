import type { ChannelAnalytics, VideoAnalytics } from '@glimpse/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';
import { setLocale } from '@/lib/i18n/i18n.ts';
import { ada, signInAs } from '@/test/fixtures.ts';
import { browserTimeZone } from './api/analytics-api.ts';


const VIDEO = '0190f5d2-7c2a-7000-8000-0000000000aa';

beforeEach(() => {
  signInAs();
});

const day = (date: string, views: number) => ({ date, views, watchTimeSeconds: views * 90, subscribersGained: 1, subscribersLost: 0, likes: 2, comments: 1 });

const channel = (range: ChannelAnalytics['range'], views = 12): ChannelAnalytics => ({
  range,
  tz: 'UTC',
  from: '2024-03-01',
  to: '2024-03-03',
  totals: { views, watchTimeSeconds: 4500, averageViewDurationSeconds: 375, subscribersGained: 3, subscribersLost: 1, likes: 6, comments: 2 },
  days: [day('2024-03-01', 2), day('2024-03-02', views - 7), day('2024-03-03', 5)],
  sources: [
    { source: 'search', views: views - 3 },
    { source: 'external', views: 3 },
    { source: 'embed', views: 0 },
  ],
  topVideos: [{ videoId: VIDEO, title: 'Cats', views, watchTimeSeconds: 4500, averageViewDurationSeconds: 375 }],
});

const video = (views = 4): VideoAnalytics => {
  const { topVideos: _, ...rest } = channel('28d', views);
  return {
    ...rest,
    videoId: VIDEO,
    title: 'Cats',
    durationSeconds: 30,
    retention: [0, 10, 20, 30].map((positionSeconds) => ({ positionSeconds, share: positionSeconds < 20 ? 1 : 0.5 })),
  };
};

/** The names of the files saved through a temporary link (saveApiDownload); jsdom has no object URLs. */
function captureSaves(): string[] {
  const saved: string[] = [];
  URL.createObjectURL = () => 'blob:csv';
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

function serve(over: Handler) {
  return fakeApi((url, init) => {
    const answer = over(url, init);
    if (answer) return answer;
    if (url.pathname === '/api/v1/users/me') return { data: { user: ada } };
    return undefined;
  });
}

describe('channel analytics', () => {
  it('asks for 28 days in the browser time zone, shows the figures and refetches for another range', async () => {
    const calls = serve((url) => (url.pathname === '/api/v1/analytics/channel' ? { data: channel((url.searchParams.get('range') ?? '28d') as '28d') } : undefined));
    renderApp('/user/@ada/dashboard/analytics');
    const cards = await screen.findByRole('list', { name: 'Summary' });
    expect(within(cards).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Views12',
      'Watch time1.3 hr',
      'Average view duration6:15',
      'Subscribers+3 / -1',
      'Likes6',
      'Comments2',
    ]);
    const asked = () => calls.filter((c) => c.url.pathname === '/api/v1/analytics/channel').map((c) => [c.url.searchParams.get('range'), c.url.searchParams.get('tz')]);
    expect(asked()).toEqual([['28d', browserTimeZone()]]);

    // Sources: the share of each, none for a source without views.
    const sources = screen.getByRole('list', { name: 'Traffic sources' });
    expect(within(sources).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Search9 views · 75%', 'Other websites3 views · 25%']);
    // Top videos lead to the video's page.
    expect(within(screen.getByRole('table', { name: 'Top videos' })).getByRole('link', { name: 'Cats' })).toHaveAttribute('href', `/user/@ada/dashboard/analytics/${VIDEO}`);

    await userEvent.selectOptions(screen.getByLabelText('Range'), 'Last 7 days');
    await waitFor(() => expect(asked()).toEqual([['28d', browserTimeZone()], ['7d', browserTimeZone()]]));
    await userEvent.selectOptions(screen.getByLabelText('Range'), 'Lifetime');
    await waitFor(() => expect(asked().at(-1)).toEqual(['lifetime', browserTimeZone()]));
  });

  it('draws the chosen metric per day, with a table as its text alternative', async () => {
    serve((url) => (url.pathname === '/api/v1/analytics/channel' ? { data: channel('28d') } : undefined));
    renderApp('/user/@ada/dashboard/analytics');
    const views = await screen.findByRole('table', { name: 'Views per day' });
    expect(within(views).getAllByRole('row').map((r) => r.textContent)).toEqual(['DayViews', 'Mar 1, 20242', 'Mar 2, 20245', 'Mar 3, 20245']);
    // The library drew an SVG line, hidden from assistive tech (the table says the same).
    await waitFor(() => expect(screen.getByTestId('line-chart').querySelector('svg .ct-line')).not.toBeNull());
    expect(screen.getByTestId('line-chart')).toHaveAttribute('aria-hidden', 'true');
    // Its axis: short day labels, no ISO dates (jsdom lays nothing out, so only the row's widest label, measured, is drawn).
    expect(screen.getByTestId('axis-labels').textContent).toContain('Mar 1');
    expect(screen.getByTestId('axis-labels').textContent).not.toContain('2024-03');

    await userEvent.click(screen.getByRole('radio', { name: 'Watch time (minutes)' }));
    const minutes = screen.getByRole('table', { name: 'Watch time (minutes) per day' });
    expect(within(minutes).getAllByRole('row').map((r) => r.textContent)).toEqual(['DayWatch time (minutes)', 'Mar 1, 20243', 'Mar 2, 20247.5', 'Mar 3, 20247.5']);
  });

  it('counts, shares, times and days in the language: "1 view", no ISO dates (English, then French)', async () => {
    serve((url) => (url.pathname === '/api/v1/analytics/channel' ? { data: channel('28d', 4) } : undefined));
    const { unmount } = renderApp('/user/@ada/dashboard/analytics');
    const sources = await screen.findByRole('list', { name: 'Traffic sources' });
    expect(within(sources).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Other websites3 views · 75%', 'Search1 view · 25%']);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
    unmount();

    await setLocale('fr');
    renderApp('/user/@ada/dashboard/analytics');
    const nb = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');
    const frSources = await screen.findByRole('list', { name: 'Sources de trafic' });
    expect(within(frSources).getAllByRole('listitem').map((li) => nb(li.textContent))).toEqual(['Autres sites web3 vues · 75 %', 'Rechercher1 vue · 25 %']);
    const cards = screen.getByRole('list', { name: 'Résumé' });
    expect(within(cards).getAllByRole('listitem').map((li) => nb(li.textContent))).toContain('Durée de visionnage1,3 h');
    expect(screen.getByRole('button', { name: 'Télécharger le CSV' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Vues par jour' });
    const rows = within(table).getAllByRole('row').map((r) => nb(r.textContent));
    expect([rows[1], rows[3]]).toEqual(['1 mars 20242', '3 mars 20245']);
    await waitFor(() => expect(screen.getByTestId('line-chart').querySelector('svg')).not.toBeNull());
    expect(nb(screen.getByTestId('axis-labels').textContent)).toContain('1 mars');
    expect(screen.getByTestId('axis-labels').textContent).not.toMatch(/2024/);
  });

  it('says so when nobody watched in the range', async () => {
    serve((url) => (url.pathname === '/api/v1/analytics/channel' ? { data: { ...channel('28d', 0), sources: [], topVideos: [] } } : undefined));
    renderApp('/user/@ada/dashboard/analytics');
    expect(await screen.findByRole('heading', { name: 'No views in this period yet' })).toBeVisible();
    expect(screen.queryByRole('table', { name: 'Views per day' })).toBeNull();
  });

  it('downloads the CSV of the range shown, with the token', async () => {
    const saves = captureSaves();
    const calls = serve((url) =>
      url.pathname === '/api/v1/analytics/channel'
        ? { data: channel('90d') }
        : url.pathname === '/api/v1/analytics/channel.csv'
          ? { data: 'csv', headers: { 'Content-Disposition': 'attachment; filename="analytics-90d.csv"' } }
          : undefined,
    );
    renderApp('/user/@ada/dashboard/analytics');
    await screen.findByRole('list', { name: 'Summary' });
    await userEvent.selectOptions(screen.getByLabelText('Range'), 'Last 90 days');
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saves.at(-1)).toBe('analytics-90d.csv'));
    const csv = calls.find((c) => c.url.pathname === '/api/v1/analytics/channel.csv')!;
    expect(Object.fromEntries(csv.url.searchParams)).toEqual({ range: '90d', tz: browserTimeZone() });
  });

  it('is reached from the dashboard', async () => {
    serve((url) => (url.pathname.startsWith('/api/v1/dashboard/channel-videos') ? { data: { videos: [], hasNextPage: false, nextCursor: null } } : undefined));
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByRole('link', { name: 'Analytics' })).toHaveAttribute('href', '/user/@ada/dashboard/analytics');
  });
});

describe('video analytics', () => {
  it('shows the retention curve over positions, with its table, and downloads the video CSV', async () => {
    const saves = captureSaves();
    const calls = serve((url) =>
      url.pathname === `/api/v1/analytics/videos/${VIDEO}` ? { data: video() } : url.pathname === `/api/v1/analytics/videos/${VIDEO}.csv` ? { data: 'csv' } : undefined,
    );
    renderApp(`/user/@ada/dashboard/analytics/${VIDEO}`);
    expect(await screen.findByRole('heading', { name: 'Analytics: Cats', level: 1 })).toBeVisible();
    const retention = screen.getByRole('table', { name: 'Audience retention' });
    expect(within(retention).getAllByRole('row').map((r) => r.textContent)).toEqual(['PositionShare of views', '0:00100%', '0:10100%', '0:2050%', '0:3050%']);
    const section = screen.getByRole('region', { name: 'Audience retention' });
    await waitFor(() => expect(section.querySelector('svg .ct-area')).not.toBeNull());

    await userEvent.selectOptions(screen.getByLabelText('Range'), 'Last 365 days');
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === `/api/v1/analytics/videos/${VIDEO}`).map((c) => c.url.searchParams.get('range'))).toEqual(['28d', '365d']));
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    // Without a file name from the server: the range's.
    await waitFor(() => expect(saves.at(-1)).toBe('glimpse-analytics-365d.csv'));
    const csv = calls.find((c) => c.url.pathname === `/api/v1/analytics/videos/${VIDEO}.csv`)!;
    expect(csv.url.searchParams.get('range')).toBe('365d');
  });

  it("shows the server's refusal for someone else's video", async () => {
    serve((url) => (url.pathname.startsWith('/api/v1/analytics/videos/') ? { status: 403, message: 'Only the owner of the video can see its analytics' } : undefined));
    renderApp(`/user/@ada/dashboard/analytics/${VIDEO}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Only the owner of the video can see its analytics');
  });

  it('is reached from its row of the dashboard table', async () => {
    const row = { _id: VIDEO, title: 'Cats', description: '', thumbnail: null, duration: 10, views: 5, likes: 0, dislikes: 0, isPublished: true, status: 'ready', progress: 1, createdAt: '2024-03-05T10:00:00.000Z', updatedAt: '2024-03-05T10:00:00.000Z', owner: { _id: ada._id, userName: 'ada', fullName: ada.fullName, avatar: null } };
    serve((url) => (url.pathname === '/api/v1/dashboard/channel-videos' ? { data: { videos: [row], hasNextPage: false, nextCursor: null } } : undefined));
    renderApp('/user/@ada/dashboard');
    expect(await screen.findByRole('link', { name: 'Analytics for Cats' })).toHaveAttribute('href', `/user/@ada/dashboard/analytics/${VIDEO}`);
  });

  it('is guarded as the dashboard: another handle goes home', async () => {
    serve(() => undefined);
    const { router } = renderApp(`/user/@bob/dashboard/analytics/${VIDEO}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
