import clsx from 'clsx';
import { LayoutDashboard } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ComponentProps } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { channelQueryOptions } from '@/components/media/channel.ts';
import { ChannelHeader } from '@/components/media/channel-header.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TabStrip } from '@/components/ui/tab-strip.tsx';
import { paths } from '@/config/paths.ts';
import { t } from '@/lib/i18n/i18n.ts';

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
  if (!q.data) return <Spinner label={t('settings.loadingChannel')} />;
  const tab = ({ isActive }: { isActive: boolean }) =>
    clsx('block border-b-2 px-3 py-2.5 text-sm font-medium sm:px-4', isActive ? 'border-fg' : 'border-transparent text-fg-muted hover:text-fg');
  return (
    <>
      <ChannelHeader
        channel={q.data}
        {...pickers}
        actions={
          <Link to={paths.user.dashboard.getHref(userName)} className="inline-flex h-10 items-center gap-2 rounded-full bg-accent px-4 text-sm font-medium text-on-accent hover:bg-accent-hover">
            <LayoutDashboard className="size-4" aria-hidden /> {t('settings.dashboard')}
          </Link>
        }
      />
      <TabStrip label={t('nav.settings')} className="mt-2 border-b border-line">
        <ul className="flex min-w-max">
          <li>
            <NavLink to={paths.user.personalInformation.getHref(userName)} className={tab}>
              {t('settings.personalInfo')}
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.user.changePassword.getHref(userName)} className={tab}>
              {t('settings.changePassword')}
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.user.blockedUsers.getHref(userName)} className={tab}>
              {t('settings.blockedUsers')}
            </NavLink>
          </li>
          <li>
            <NavLink to={paths.user.notifications.getHref(userName)} className={tab}>
              {t('nav.notifications')}
            </NavLink>
          </li>
        </ul>
      </TabStrip>
    </>
  );
}
