import clsx from 'clsx';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useMatch } from 'react-router';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { LanguageSwitch } from '@/components/ui/language-switch.tsx';
import { useRouteFocus } from '@/lib/use-route-focus.ts';
import { SideMenu } from './side-menu.tsx';
import { TopBar } from './top-bar.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * Top bar and side menu around every in-layout route. Side menu widths (spec §2): none
 * under 500 px, icon rail up to 1023 px and on watch pages, full menu otherwise; the
 * top bar toggles a slide-in overlay menu where the full one is not shown.
 */
export function MainLayout() {
  const onWatch = useMatch(paths.video.path) !== null;
  const location = useLocation();
  const [showNavbar, setShowNavbar] = useState(false);
  const main = useRef<HTMLElement>(null);
  useRouteFocus(main);
  // Close the overlay on navigation.
  const [path, setPath] = useState(location.pathname);
  if (path !== location.pathname) {
    setPath(location.pathname);
    setShowNavbar(false);
  }
  // The overlay covers the page like a dialog: Escape closes it.
  useEffect(() => {
    if (!showNavbar) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setShowNavbar(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [showNavbar]);

  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:p-2">
        {t('shell.skipToContent')}
      </a>
      <TopBar onToggleMenu={() => setShowNavbar((v) => !v)} menuOpen={showNavbar} showMenuButton={onWatch ? '' : 'lg:hidden'} />
      <div className="flex">
        <SideMenu
          mode={onWatch ? 'rail' : 'responsive'}
          className={clsx('sticky top-14 hidden h-[calc(100vh-3.5rem)] shrink-0 py-2 xs:flex', onWatch ? 'w-20' : 'w-20 lg:w-60')}
        />
        <main ref={main} id="main" tabIndex={-1} className="min-w-0 flex-1 outline-none">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {showNavbar && (
        <div className="fixed inset-0 z-40" id="overlay-menu">
          <button type="button" aria-label={t('shell.closeMenu')} className="absolute inset-0 bg-media/40" onClick={() => setShowNavbar(false)} />
          <div className="animate-[slide-in_150ms_ease-out] absolute inset-y-0 left-0 w-64 bg-surface py-4 shadow-xl">
            <SideMenu mode="full" onNavigate={() => setShowNavbar(false)} />
            <LanguageSwitch className="mt-2 border-t border-line px-4 pt-4 sm:hidden" />
          </div>
        </div>
      )}
    </div>
  );
}
