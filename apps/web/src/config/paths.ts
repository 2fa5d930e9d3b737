/**
 * Every route of the app (spec §2) in one place. `path` is the router pattern,
 * `getHref` builds a link. adminName is the user name prefixed with '@'.
 */
const handle = (userName: string) => `@${userName.replace(/^@/, '')}`;

export const paths = {
  home: { path: '/', getHref: () => '/' },
  login: { path: '/login', getHref: () => '/login' },
  register: { path: '/register', getHref: () => '/register' },
  passwordReset: { path: '/password-reset', getHref: (token?: string) => (token ? `/password-reset?token=${encodeURIComponent(token)}` : '/password-reset') },
  emailVerification: { path: '/email-verification', getHref: (token: string) => `/email-verification?token=${encodeURIComponent(token)}` },
  /** Linked from notification mails: asks before it turns a kind of mail off. */
  unsubscribe: { path: '/unsubscribe', getHref: (token: string) => `/unsubscribe?token=${encodeURIComponent(token)}` },

  search: {
    path: '/search',
    getHref: (searchText: string, now: number = Date.now()) =>
      `/search?${new URLSearchParams({ searchText, t: String(now) }).toString()}`,
  },
  video: {
    path: '/video/:videoId',
    getHref: (videoId: string, listId?: string) =>
      `/video/${encodeURIComponent(videoId)}${listId ? `?listId=${encodeURIComponent(listId)}` : ''}`,
  },
  /** A live's watch page and the creator's lives (ADR 024). */
  live: { path: '/live/:liveId', getHref: (liveId: string) => `/live/${encodeURIComponent(liveId)}` },
  myLives: { path: '/lives', getHref: () => '/lives' },
  tweet: { path: '/tweet/:tweetId', getHref: (tweetId: string) => `/tweet/${encodeURIComponent(tweetId)}` },
  help: { path: '/help', getHref: () => '/help' },
  about: { path: '/about', getHref: () => '/about' },
  admin: {
    path: '/admin',
    getHref: () => '/admin',
    settings: { path: 'settings', getHref: () => '/admin/settings' },
    users: { path: 'users', getHref: () => '/admin/users' },
    registrations: { path: 'registrations', getHref: () => '/admin/registrations' },
    watchedWords: { path: 'watched-words', getHref: () => '/admin/watched-words' },
    federation: { path: 'federation', getHref: () => '/admin/federation' },
    heldTweets: { path: 'held-tweets', getHref: () => '/admin/held-tweets' },
    reports: { path: 'reports', getHref: () => '/admin/reports' },
    log: { path: 'log', getHref: () => '/admin/log' },
  },

  channel: {
    root: { path: '/channel/:adminName', getHref: (userName: string) => `/channel/${handle(userName)}` },
    videos: { path: 'videos', getHref: (userName: string) => `/channel/${handle(userName)}/videos` },
    playlists: { path: 'playlists', getHref: (userName: string) => `/channel/${handle(userName)}/playlists` },
    tweets: { path: 'tweets', getHref: (userName: string) => `/channel/${handle(userName)}/tweets` },
    subscribed: { path: 'subscribed', getHref: (userName: string) => `/channel/${handle(userName)}/subscribed` },
  },

  history: { path: '/history', getHref: () => '/history' },
  likedVideos: { path: '/liked-videos', getHref: () => '/liked-videos' },
  playlists: { path: '/playlists', getHref: () => '/playlists' },
  subscriptions: { path: '/subscriptions', getHref: () => '/subscriptions' },
  /** A channel of another server, as this server knows it (issue #35). */
  remoteChannel: { path: '/remote/:actorId', getHref: (actorId: string) => `/remote/${encodeURIComponent(actorId)}` },
  /** A video of another server, played here from its origin. */
  remoteVideo: { path: '/remote/video/:videoId', getHref: (videoId: string) => `/remote/video/${encodeURIComponent(videoId)}` },
  myReports: { path: '/my-reports', getHref: () => '/my-reports' },
  notifications: { path: '/notifications', getHref: (filter?: 'unread') => (filter ? `/notifications?filter=${filter}` : '/notifications') },

  user: {
    root: { path: '/user/:adminName', getHref: (userName: string) => `/user/${handle(userName)}` },
    dashboard: { path: 'dashboard', getHref: (userName: string) => `/user/${handle(userName)}/dashboard` },
    analytics: { path: 'dashboard/analytics', getHref: (userName: string) => `/user/${handle(userName)}/dashboard/analytics` },
    videoAnalytics: {
      path: 'dashboard/analytics/:videoId',
      getHref: (userName: string, videoId: string) => `/user/${handle(userName)}/dashboard/analytics/${encodeURIComponent(videoId)}`,
    },
    changePassword: { path: 'change-password', getHref: (userName: string) => `/user/${handle(userName)}/change-password` },
    blockedUsers: { path: 'blocked-users', getHref: (userName: string) => `/user/${handle(userName)}/blocked-users` },
    notifications: { path: 'notifications', getHref: (userName: string) => `/user/${handle(userName)}/notifications` },
    personalInformation: {
      path: 'personal-information',
      getHref: (userName: string) => `/user/${handle(userName)}/personal-information`,
    },
  },
} as const;

/** The user name inside an adminName route parameter, or null when it lacks the '@'. */
export function userNameFromAdminName(adminName: string | undefined): string | null {
  if (!adminName || !adminName.startsWith('@') || adminName.length < 2) return null;
  return adminName.slice(1);
}
