import clsx from 'clsx';
import { LayoutDashboard } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ComponentProps } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { channelQueryOptions } from '@/components/media/channel.ts';
import { ChannelHeader } from '@/components/media/channel-header.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';

type Pickers = Omit<ComponentProps<typeof ChannelHeader>, 'channel' | 'actions'>;

/**
 * The settings pages' header (spec §2): the channel header with a Dashboard button and
 * the settings tabs. A channel that fails to load sends the user home.
 */
export function SettingsHeader({ userName, ...pickers }: { userName: string } & Pickers) {
  const navigate = useNavigate();
  const q = useQuery(channelQueryOptions(userName));
  const failed = q.isError;
  useEffect(() => {
    if (failed) navigate(paths.home.getHref(), { replace: true });
  }, [failed, navigate]);
  if (!q.data) return <Spinner label="Loading channel" />;
  const tab = ({ isActive }: { isActive: boolean }) =>
    clsx('block border-b-2 px-3 py-2.5 text-sm font-medium sm:px-4', isActive ? 'border-zinc-900' : 'border-transparent text-zinc-600 hover:text-zinc-900');
  return (
    <>
      <ChannelHeader
        channel={q.data}
        {...pickers}
        actions={
          <Link to={paths.user.dashboard.getHref(userName)} className="inline-flex h-10 items-center gap-2 rounded-full bg-blue-600 px-4 text-sm font-medium text-white hover:bg-blue-700">
            <LayoutDashboard className="size-4" aria-hidden /> Dashboard
          </Link>
        }
      />
      <nav aria-label="Settings" className="mt-4 overflow-x-auto border-b border-zinc-200">
        <ul className="flex min-w-max">
          <li>
            <NavLink to={paths.user.personalInformation.getHref(userName)} className={tab}>
              Personal information
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.user.changePassword.getHref(userName)} className={tab}>
              Change password
            </NavLink>
          </li>
        </ul>
      </nav>
    </>
  );
}
