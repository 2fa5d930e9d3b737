import { LayoutDashboard } from 'lucide-react';
import clsx from 'clsx';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, NavLink, Outlet, useMatch, useNavigate, useParams } from 'react-router';
import { ChannelHeader } from '@/components/media/channel-header.tsx';
import type { Channel } from '@/components/media/types.ts';
import { Button } from '@/components/ui/button.tsx';
import { NotAvailable } from '@/components/ui/not-available.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths, userNameFromAdminName } from '@/config/paths.ts';
import { ReportMenu } from '@/components/moderation/report-dialog.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useChannel, useToggleSubscription } from '../api/channel-api.ts';
import type { ChannelContext } from '../components/channel-context.ts';
import { ChannelFeedLink, useChannelFeedLinks } from '../components/channel-feed.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const tabs: { label: MessageKey; href: (userName: string) => string }[] = [
  { label: 'channel.videos', href: paths.channel.videos.getHref },
  { label: 'nav.playlists', href: paths.channel.playlists.getHref },
  { label: 'channel.tweets', href: paths.channel.tweets.getHref },
  { label: 'channel.subscribed', href: paths.channel.subscribed.getHref },
];

function SubscribeButton({ channel }: { channel: Channel }) {
  const toggle = useToggleSubscription(channel.userName);
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      await toggle(channel._id);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant={channel.isSubscribed ? 'secondary' : 'dark'} onClick={onClick} loading={busy} aria-pressed={channel.isSubscribed}>
      {channel.isSubscribed ? t('watch.subscribed') : t('watch.subscribe')}
    </Button>
  );
}

/** The public channel (spec §2): header, tab navigation, and the tab below. */
const tabPaths = [paths.channel.videos.path, paths.channel.playlists.path, paths.channel.tweets.path, paths.channel.subscribed.path] as string[];

export default function ChannelLayout() {
  const userName = userNameFromAdminName(useParams().adminName);
  const tab = useMatch(`${paths.channel.root.path}/:tab`)?.params.tab;
  if (!userName) return <NotAvailable />;
  // The index and unknown subpaths render the not-available page alone, without a channel header.
  if (!tab || !tabPaths.includes(tab)) return <Outlet />;
  return <ChannelPage userName={userName} />;
}

function ChannelPage({ userName }: { userName: string }) {
  const navigate = useNavigate();
  const me = useStoredUser();
  const query = useChannel(userName);
  useDocumentTitle(query.data ? `${query.data.fullName} (@${query.data.userName})` : null);
  const failed = query.isError;
  useChannelFeedLinks(query.data);
  // Spec §8: a channel that fails to load sends the visitor home.
  useEffect(() => {
    if (failed) navigate(paths.home.getHref(), { replace: true });
  }, [failed, navigate]);

  if (!query.data) return <Spinner label={t('settings.loadingChannel')} />;
  const channel = query.data;
  const isOwner = me?.userId === channel._id;
  const context: ChannelContext = { channel, isOwner };

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <ChannelHeader
        channel={channel}
        actions={
          <>
            {isOwner ? (
              <Link
                to={paths.user.dashboard.getHref(channel.userName)}
                className="inline-flex h-10 items-center gap-2 rounded-full bg-accent px-4 text-sm font-medium text-on-accent hover:bg-accent-hover"
              >
                <LayoutDashboard className="size-4" aria-hidden /> {t('dashboard.title')}
              </Link>
            ) : (
              <SubscribeButton channel={channel} />
            )}
            <ChannelFeedLink userName={channel.userName} />
            {!isOwner && me && <ReportMenu kind="channel" id={channel._id} label={t('channel.moreActions')} />}
          </>
        }
      />
      <nav aria-label={t('channel.nav')} className="mt-2 overflow-x-auto border-b border-line">
        <ul className="flex min-w-max">
          {tabs.map((tab) => (
            <li key={tab.label}>
              <NavLink
                to={tab.href(channel.userName)}
                className={({ isActive }) =>
                  clsx('block border-b-2 px-3 py-2.5 text-sm font-medium sm:px-4', isActive ? 'border-fg text-fg' : 'border-transparent text-fg-muted hover:text-fg')
                }
              >
                {t(tab.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="pb-6 pt-4">
        <Outlet context={context} />
      </div>
    </div>
  );
}
