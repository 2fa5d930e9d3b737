import { LogIn, LogOut, Menu, Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { IconButton } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { logout, useAuth, useSetMe } from '@/features/auth/api/auth-api.ts';

function SearchBox() {
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
  };
  return (
    <form role="search" onSubmit={submit} className="flex min-w-0 max-w-xl flex-1 items-center">
      <input
        type="search"
        aria-label="Search"
        placeholder="Search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        // Ring drawn inside: outside it would run over the search button.
        className="h-10 min-w-0 flex-1 rounded-l-full border border-zinc-300 px-4 text-sm focus-visible:-outline-offset-2"
      />
      <button type="submit" aria-label="Search" title="Search" className="flex h-10 w-12 shrink-0 items-center justify-center rounded-r-full border border-l-0 border-zinc-300 bg-zinc-50 hover:bg-zinc-100">
        <Search className="size-5" aria-hidden />
      </button>
    </form>
  );
}

export function TopBar({ onToggleMenu, showMenuButton, menuOpen }: { onToggleMenu: () => void; showMenuButton: string; menuOpen: boolean }) {
  const { user } = useAuth();
  const setMe = useSetMe();
  const navigate = useNavigate();

  const onLogout = async () => {
    try {
      await logout();
      toast.success('Logged out successfully');
    } catch (err) {
      // Spec §8: logout failures are only logged; the local session is cleared anyway.
      console.warn('Logout failed', err);
    }
    setMe(null);
    navigate(paths.home.getHref());
  };

  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-zinc-200 bg-white px-2 xs:px-4">
      <IconButton label="Menu" aria-expanded={menuOpen} aria-controls="overlay-menu" onClick={onToggleMenu} className={showMenuButton}>
        <Menu className="size-5" aria-hidden />
      </IconButton>
      <Link to={paths.home.getHref()} className="flex shrink-0 items-center gap-1 rounded-lg font-bold" aria-label="Glimpse home">
        <img src="/favicon.svg" alt="" width={28} height={28} className="size-7" />
        <span className="hidden text-lg tracking-tight sm:inline">Glimpse</span>
      </Link>
      <div className="flex min-w-0 flex-1 justify-center px-1">
        <SearchBox />
      </div>
      {user ? (
        <>
          <Link to={paths.user.personalInformation.getHref(user.userName)} className="rounded-full" aria-label="Your profile" title={user.fullName}>
            <Avatar src={user.avatar?.url} fullName={user.fullName} size={32} />
          </Link>
          <button type="button" onClick={onLogout} className="flex h-9 shrink-0 items-center gap-1 rounded-full border border-zinc-300 px-2 text-sm font-medium hover:bg-zinc-100 sm:px-3">
            <LogOut className="size-4" aria-hidden />
            <span className="sr-only sm:not-sr-only">Log Out</span>
          </button>
        </>
      ) : (
        <Link to={paths.login.getHref()} className="flex h-9 shrink-0 items-center gap-1 rounded-full border border-zinc-300 px-2 text-sm font-medium text-blue-700 hover:bg-blue-50 sm:px-3">
          <LogIn className="size-4" aria-hidden />
          <span className="sr-only sm:not-sr-only">Log In</span>
        </Link>
      )}
    </header>
  );
}
