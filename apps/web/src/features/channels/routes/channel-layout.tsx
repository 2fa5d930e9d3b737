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
import { errorMessage } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useChannel, useToggleSubscription } from '../api/channel-api.ts';
import type { ChannelContext } from '../components/channel-context.ts';

const tabs = [
  { label: 'Videos', href: paths.channel.videos.getHref },
  { label: 'Playlists', href: paths.channel.playlists.getHref },
  { label: 'Tweets', href: paths.channel.tweets.getHref },
  { label: 'Subscribed', href: paths.channel.subscribed.getHref },
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
      {channel.isSubscribed ? 'Subscribed' : 'Subscribe'}
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
  const failed = query.isError;
  // Spec §8: a channel that fails to load sends the visitor home.
  useEffect(() => {
    if (failed) navigate(paths.home.getHref(), { replace: true });
  }, [failed, navigate]);

  if (!query.data) return <Spinner label="Loading channel" />;
  const channel = query.data;
  const isOwner = me?.userId === channel._id;
  const context: ChannelContext = { channel, isOwner };

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <ChannelHeader
        channel={channel}
        actions={
          isOwner ? (
            <Link
              to={paths.user.dashboard.getHref(channel.userName)}
              className="inline-flex h-10 items-center gap-2 rounded-full bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700"
            >
              <LayoutDashboard className="size-4" aria-hidden /> Dashboard
            </Link>
          ) : (
            <SubscribeButton channel={channel} />
          )
        }
      />
      <nav aria-label="Channel" className="mt-4 overflow-x-auto border-b border-zinc-200">
        <ul className="flex min-w-max">
          {tabs.map((tab) => (
            <li key={tab.label}>
              <NavLink
                to={tab.href(channel.userName)}
                className={({ isActive }) =>
                  clsx('block border-b-2 px-3 py-2.5 text-sm font-medium sm:px-4', isActive ? 'border-zinc-900 text-zinc-900' : 'border-transparent text-zinc-600 hover:text-zinc-900')
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="py-6">
        <Outlet context={context} />
      </div>
    </div>
  );
}
