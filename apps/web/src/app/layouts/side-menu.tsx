import clsx from 'clsx';
import { isStaff } from '@glimpse/contract/roles';
import { Bell, CircleHelp, Clapperboard, Flag, History, House, Info, ListVideo, Radio, Settings, ShieldCheck, SquareUser, ThumbsUp, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths.ts';
import { useStoredUser } from '@/lib/session.ts';
import { t } from '@/lib/i18n/i18n.ts';

interface Entry {
  label: string;
  /** What the 80 px rail shows instead of a label too long for it (and names the link by: what it shows, WCAG 2.5.3). */
  short?: string;
  to: string;
  icon: LucideIcon;
  end?: boolean;
}

/**
 * The menu entries of spec §2 in their two groups; own-channel entries lead to login when logged out.
 * About (after them) leads to the instance's about page; logged-in users also get Notifications and My reports.
 * Staff (moderators and admins) also get Administration; the server checks their role again.
 */
export function useMenuGroups(): Entry[][] {
  const user = useStoredUser();
  const own = (href: (u: string) => string) => (user ? href(user.userName) : paths.login.getHref());
  return [
    [
      { label: t('nav.home'), to: paths.home.getHref(), icon: House, end: true },
      { label: t('nav.subscriptions'), to: paths.subscriptions.getHref(), icon: Clapperboard },
      { label: t('nav.yourChannel'), to: own(paths.channel.videos.getHref), icon: SquareUser },
      { label: t('nav.playlists'), to: paths.playlists.getHref(), icon: ListVideo },
      { label: t('nav.history'), to: paths.history.getHref(), icon: History },
      { label: t('nav.likedVideos'), to: paths.likedVideos.getHref(), icon: ThumbsUp },
    ],
    [
      { label: t('nav.help'), to: paths.help.getHref(), icon: CircleHelp },
      { label: t('nav.settings'), to: own(paths.user.dashboard.getHref), icon: Settings },
      // Not in the spec's list: the instance's about page (issue #12), after the spec's entries.
      { label: t('nav.about'), to: paths.about.getHref(), icon: Info },
      ...(user ? [{ label: t('nav.notifications'), to: paths.notifications.getHref(), icon: Bell }] : []),
      ...(user ? [{ label: t('nav.myReports'), to: paths.myReports.getHref(), icon: Flag }] : []),
      // Not in the spec's list: lives (issue #36), for creators.
      ...(user ? [{ label: t('live.myLives'), to: paths.myLives.getHref(), icon: Radio }] : []),
      ...(isStaff(user?.role) ? [{ label: t('nav.administration'), short: t('nav.administrationShort'), to: paths.admin.getHref(), icon: ShieldCheck }] : []),
    ],
  ];
}

/**
 * 'rail' is the collapsed icon rail; 'full' the labelled menu; 'responsive' is the rail
 * up to 1023 px and the full menu from 1024 px.
 */
export function SideMenu({ mode, onNavigate, className }: { mode: 'rail' | 'full' | 'responsive'; onNavigate?: () => void; className?: string }) {
  const groups = useMenuGroups();
  const rail = mode === 'rail' || mode === 'responsive';
  const full = mode === 'full';
  const responsive = mode === 'responsive';
  return (
    <nav aria-label={t('shell.mainMenu')} className={clsx('flex flex-col gap-2 overflow-y-auto', className)}>
      {groups.map((group, i) => (
        <ul key={i} className={clsx('flex flex-col gap-1 px-2', i > 0 && 'border-t border-line pt-2')}>
          {group.map((entry) => (
            <li key={entry.to}>
              <NavLink
                to={entry.to}
                end={entry.end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  clsx(
                    'flex items-center rounded-lg hover:bg-surface-subtle',
                    isActive && 'bg-surface-subtle font-semibold',
                    rail && 'flex-col gap-1 px-1 py-3 text-[10px] leading-tight',
                    full && 'flex-row gap-4 px-3 py-2 text-sm',
                    responsive && 'lg:flex-row lg:gap-4 lg:px-3 lg:py-2 lg:text-sm',
                  )
                }
              >
                <entry.icon className="size-5 shrink-0" aria-hidden />
                {entry.short && rail ? (
                  <>
                    <span className={clsx('text-center', responsive && 'lg:hidden')}>{entry.short}</span>
                    {responsive && <span className="hidden lg:inline">{entry.label}</span>}
                  </>
                ) : (
                  <span className={clsx(rail && 'text-center')}>{entry.label}</span>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      ))}
    </nav>
  );
}
