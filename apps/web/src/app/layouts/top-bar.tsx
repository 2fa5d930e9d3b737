import { ArrowLeft, LogIn, LogOut, Menu, Search } from 'lucide-react';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { IconButton } from '@/components/ui/button.tsx';
import { LanguageSwitch } from '@/components/ui/language-switch.tsx';
import { paths } from '@/config/paths.ts';
import { logout } from '@/features/auth/api/auth-api.ts';
import { ThemeMenu } from '@/features/theme/theme-menu.tsx';
import { useAuth, useSetMe } from '@/lib/me.ts';
import { useInstance } from '@/lib/public-config.ts';
import { t } from '@/lib/i18n/i18n.ts';

// Signed-in visitors only: the bell, its live stream and the notification texts stay out of the first load.
const NotificationBell = lazy(() => import('@/features/notifications/components/notification-bell.tsx').then((m) => ({ default: m.NotificationBell })));

function SearchBox({ autoFocus, onSearched }: { autoFocus?: boolean; onSearched?: () => void }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const current = params.get('searchText') ?? '';
  const [text, setText] = useState(current);
  // Follow the URL when it changes (back/forward, a new search elsewhere).
  const [seen, setSeen] = useState(current);
  if (seen !== current) {
    setSeen(current);
    setText(current);
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const searchText = text.trim();
    if (!searchText) return;
    navigate(paths.search.getHref(searchText));
    onSearched?.();
  };
  return (
    <form role="search" onSubmit={submit} className="flex min-w-0 max-w-xl flex-1 items-center">
      <input
        type="search"
        aria-label={t('shell.search')}
        placeholder={t('shell.search')}
        autoFocus={autoFocus}
        value={text}
        onChange={(e) => setText(e.target.value)}
        // Ring drawn inside: outside it would run over the search button.
        className="h-10 min-w-0 flex-1 rounded-l-full border border-line-strong px-4 text-sm focus-visible:-outline-offset-2"
      />
      <button type="submit" aria-label={t('shell.search')} title={t('shell.search')} className="flex h-10 w-12 shrink-0 items-center justify-center rounded-r-full border border-l-0 border-line-strong bg-surface-muted hover:bg-surface-subtle">
        <Search className="size-5" aria-hidden />
      </button>
    </form>
  );
}

export function TopBar({ onToggleMenu, showMenuButton, menuOpen }: { onToggleMenu: () => void; showMenuButton: string; menuOpen: boolean }) {
  const { user } = useAuth();
  const { instance } = useInstance();
  const setMe = useSetMe();
  const navigate = useNavigate();
  // Under 500 px the search is an icon that opens a full-width field over the bar (room for the rest).
  const [searching, setSearching] = useState(false);

  const onLogout = async () => {
    try {
      await logout();
      toast.success(t('shell.loggedOut'));
    } catch (err) {
      // Spec §8: logout failures are only logged; the local session is cleared anyway.
      console.warn('Logout failed', err);
    }
    setMe(null);
    navigate(paths.home.getHref());
  };

  const bar = 'sticky top-0 z-30 flex h-14 items-center gap-1 border-b border-line bg-canvas px-2 xs:gap-2 xs:px-4';
  if (searching)
    return (
      <header className={bar}>
        <IconButton label={t('shell.closeSearch')} onClick={() => setSearching(false)}>
          <ArrowLeft className="size-5" aria-hidden />
        </IconButton>
        <SearchBox autoFocus onSearched={() => setSearching(false)} />
      </header>
    );

  return (
    <header className={bar}>
      <IconButton label={t('shell.menu')} aria-expanded={menuOpen} aria-controls="overlay-menu" onClick={onToggleMenu} className={showMenuButton}>
        <Menu className="size-5" aria-hidden />
      </IconButton>
      <Link to={paths.home.getHref()} className="flex shrink-0 items-center gap-1 rounded-lg font-bold" aria-label={t('shell.homeLink', { name: instance.name })}>
        <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
        <span className="hidden max-w-48 truncate text-lg tracking-tight sm:inline">{instance.name}</span>
      </Link>
      <div className="flex min-w-0 flex-1 justify-end px-1 xs:justify-center">
        <div className="hidden min-w-0 max-w-xl flex-1 xs:flex">
          <SearchBox />
        </div>
        <IconButton label={t('shell.openSearch')} onClick={() => setSearching(true)} className="xs:hidden">
          <Search className="size-5" aria-hidden />
        </IconButton>
      </div>
      {/* Narrow screens: in the overlay menu instead. */}
      <LanguageSwitch className="hidden shrink-0 sm:block" />
      <ThemeMenu />
      {user ? (
        <>
          <Suspense fallback={<span className="size-10 shrink-0" aria-hidden />}>
            <NotificationBell userId={user.userId} userName={user.userName} />
          </Suspense>
          <Link to={paths.user.personalInformation.getHref(user.userName)} className="rounded-full" aria-label={t('shell.yourProfile')} title={user.fullName}>
            <Avatar src={user.avatar?.url} fullName={user.fullName} size={32} />
          </Link>
          <button type="button" onClick={onLogout} className="flex h-9 shrink-0 items-center gap-1 rounded-full border border-line-strong px-2 text-sm font-medium hover:bg-surface-subtle sm:px-3">
            <LogOut className="size-4" aria-hidden />
            <span className="sr-only sm:not-sr-only">{t('shell.logOut')}</span>
          </button>
        </>
      ) : (
        <Link to={paths.login.getHref()} className="flex h-9 shrink-0 items-center gap-1 rounded-full border border-line-strong px-2 text-sm font-medium text-link hover:bg-accent-subtle sm:px-3">
          <LogIn className="size-4" aria-hidden />
          <span className="sr-only sm:not-sr-only">{t('shell.logIn')}</span>
        </Link>
      )}
    </header>
  );
}
