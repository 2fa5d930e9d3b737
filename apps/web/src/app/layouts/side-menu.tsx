import clsx from 'clsx';
import { isStaff } from '@glimpse/contract';
import { CircleHelp, Clapperboard, History, House, ListVideo, Settings, ShieldCheck, SquareUser, ThumbsUp, type LucideIcon } from 'lucide-react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths.ts';
import { useStoredUser } from '@/lib/session.ts';

interface Entry {
  label: string;
  to: string;
  icon: LucideIcon;
  end?: boolean;
}

/**
 * The menu entries of spec §2 in their two groups; own-channel entries lead to login when logged out.
 * Staff (moderators and admins) also get Administration; the server checks their role again.
 */
export function useMenuGroups(): Entry[][] {
  const user = useStoredUser();
  const own = (href: (u: string) => string) => (user ? href(user.userName) : paths.login.getHref());
  return [
    [
      { label: 'Home', to: paths.home.getHref(), icon: House, end: true },
      { label: 'Subscriptions', to: paths.subscriptions.getHref(), icon: Clapperboard },
      { label: 'Your Channel', to: own(paths.channel.videos.getHref), icon: SquareUser },
      { label: 'Playlists', to: paths.playlists.getHref(), icon: ListVideo },
      { label: 'History', to: paths.history.getHref(), icon: History },
      { label: 'Liked videos', to: paths.likedVideos.getHref(), icon: ThumbsUp },
    ],
    [
      { label: 'Help', to: paths.help.getHref(), icon: CircleHelp },
      { label: 'Settings', to: own(paths.user.dashboard.getHref), icon: Settings },
      ...(isStaff(user?.role) ? [{ label: 'Administration', to: paths.admin.getHref(), icon: ShieldCheck }] : []),
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
    <nav aria-label="Main menu" className={clsx('flex flex-col gap-2 overflow-y-auto', className)}>
      {groups.map((group, i) => (
        <ul key={i} className={clsx('flex flex-col gap-1 px-2', i > 0 && 'border-t border-zinc-200 pt-2')}>
          {group.map((entry) => (
            <li key={entry.label}>
              <NavLink
                to={entry.to}
                end={entry.end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  clsx(
                    'flex items-center rounded-lg hover:bg-zinc-100',
                    isActive && 'bg-zinc-100 font-semibold',
                    rail && 'flex-col gap-1 px-1 py-3 text-[10px] leading-tight',
                    full && 'flex-row gap-4 px-3 py-2 text-sm',
                    responsive && 'lg:flex-row lg:gap-4 lg:px-3 lg:py-2 lg:text-sm',
                  )
                }
              >
                <entry.icon className="size-5 shrink-0" aria-hidden />
                <span className={clsx(rail && 'text-center')}>{entry.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      ))}
    </nav>
  );
}
