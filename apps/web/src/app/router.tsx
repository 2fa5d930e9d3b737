import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotAvailable } from '@/components/ui/not-available.tsx';
import { paths } from '@/config/paths.ts';
import { MainLayout } from './layouts/main-layout.tsx';
import { RouteError } from './routes/route-error.tsx';

/** Route-level code splitting: each screen is its own chunk, loaded on first visit. */
const load = (importer: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await importer()).default });

const notAvailable: RouteObject = { path: '*', Component: NotAvailable };

export const routes: RouteObject[] = [
  {
    ErrorBoundary: RouteError,
    children: [
      // Outside the main layout (spec §2).
      { path: paths.login.path, lazy: load(() => import('@/features/auth/routes/login.tsx')) },
      { path: paths.register.path, lazy: load(() => import('@/features/auth/routes/register.tsx')) },
      { path: paths.passwordReset.path, lazy: load(() => import('@/features/auth/routes/password-reset.tsx')) },
      { path: paths.emailVerification.path, lazy: load(() => import('@/features/auth/routes/email-verification.tsx')) },
      { path: paths.unsubscribe.path, lazy: load(() => import('@/features/settings/routes/unsubscribe.tsx')) },
      {
        Component: MainLayout,
        children: [
          { index: true, lazy: load(() => import('@/features/videos/routes/home.tsx')) },
          { path: paths.search.path, lazy: load(() => import('@/features/search/routes/search.tsx')) },
          { path: paths.video.path, lazy: load(() => import('./routes/watch.tsx')) },
          { path: paths.live.path, lazy: load(() => import('./routes/live-page.tsx')) },
          { path: paths.myLives.path, lazy: load(() => import('@/features/lives/routes/my-lives.tsx')) },
          { path: paths.tweet.path, lazy: load(() => import('@/app/routes/tweet-page.tsx')) },
          { path: paths.help.path, lazy: load(() => import('./routes/help.tsx')) },
          { path: paths.about.path, lazy: load(() => import('@/features/instance/routes/about.tsx')) },
          {
            path: paths.admin.path,
            lazy: load(() => import('@/features/admin/routes/admin.tsx')),
            children: [
              { index: true, lazy: load(() => import('@/features/admin/routes/overview.tsx')) },
              { path: paths.admin.users.path, lazy: load(() => import('@/features/admin/routes/users.tsx')) },
              { path: paths.admin.settings.path, lazy: load(() => import('@/features/admin/routes/settings.tsx')) },
              { path: paths.admin.registrations.path, lazy: load(() => import('@/features/admin/routes/registrations.tsx')) },
              { path: paths.admin.watchedWords.path, lazy: load(() => import('@/features/admin/routes/watched-words.tsx')) },
              { path: paths.admin.federation.path, lazy: load(() => import('@/features/admin/routes/federation.tsx')) },
              { path: paths.admin.heldTweets.path, lazy: load(() => import('@/features/admin/routes/held-tweets.tsx')) },
              { path: paths.admin.reports.path, lazy: load(() => import('@/features/moderation/routes/admin-reports.tsx')) },
              { path: paths.admin.log.path, lazy: load(() => import('@/features/moderation/routes/admin-log.tsx')) },
              notAvailable,
            ],
          },
          {
            path: paths.channel.root.path,
            lazy: load(() => import('@/features/channels/routes/channel-layout.tsx')),
            children: [
              { index: true, Component: NotAvailable },
              { path: paths.channel.videos.path, lazy: load(() => import('@/features/channels/routes/channel-videos.tsx')) },
              { path: paths.channel.playlists.path, lazy: load(() => import('@/features/channels/routes/channel-playlists.tsx')) },
              { path: paths.channel.tweets.path, lazy: load(() => import('@/features/channels/routes/channel-tweets.tsx')) },
              { path: paths.channel.subscribed.path, lazy: load(() => import('@/features/channels/routes/channel-subscribed.tsx')) },
              notAvailable,
            ],
          },
          { path: paths.history.path, lazy: load(() => import('@/features/library/routes/history.tsx')) },
          { path: paths.likedVideos.path, lazy: load(() => import('@/features/library/routes/liked-videos.tsx')) },
          { path: paths.playlists.path, lazy: load(() => import('@/features/library/routes/my-playlists.tsx')) },
          { path: paths.subscriptions.path, lazy: load(() => import('@/features/library/routes/subscriptions.tsx')) },
          { path: paths.remoteChannel.path, lazy: load(() => import('@/features/federation/routes/remote-channel.tsx')) },
          { path: paths.remoteVideo.path, lazy: load(() => import('./routes/remote-watch.tsx')) },
          { path: paths.myReports.path, lazy: load(() => import('@/features/moderation/routes/my-reports.tsx')) },
          { path: paths.notifications.path, lazy: load(() => import('@/features/notifications/routes/notifications.tsx')) },
          {
            path: paths.user.root.path,
            lazy: load(() => import('@/features/settings/routes/user-layout.tsx')),
            children: [
              { index: true, Component: NotAvailable },
              { path: paths.user.dashboard.path, lazy: load(() => import('@/features/dashboard/routes/dashboard.tsx')) },
              // Only these two load the chart library (ADR 014).
              { path: paths.user.analytics.path, lazy: load(() => import('@/features/dashboard/routes/channel-analytics.tsx')) },
              { path: paths.user.videoAnalytics.path, lazy: load(() => import('@/features/dashboard/routes/video-analytics.tsx')) },
              { path: paths.user.changePassword.path, lazy: load(() => import('@/features/settings/routes/change-password.tsx')) },
              { path: paths.user.personalInformation.path, lazy: load(() => import('@/features/settings/routes/personal-information.tsx')) },
              { path: paths.user.blockedUsers.path, lazy: load(() => import('@/features/settings/routes/blocked-users.tsx')) },
              { path: paths.user.notifications.path, lazy: load(() => import('@/features/settings/routes/notifications.tsx')) },
              notAvailable,
            ],
          },
          notAvailable,
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
