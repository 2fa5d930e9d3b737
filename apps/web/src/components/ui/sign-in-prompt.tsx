import { LogIn, type LucideIcon } from 'lucide-react';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { t } from '@/lib/i18n/i18n.ts';

export interface SignInCopy {
  icon: LucideIcon;
  title: string;
  text: string;
}

/**
 * A personal page opened without an account (issue #17): its heading and a sign-in prompt instead of
 * a bounce home with a toast. A session that ended server-side still gets the toast (useLoginGuard).
 */
export function SignInPage({ heading, copy }: { heading: string; copy: SignInCopy }) {
  const Icon = copy.icon;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">{heading}</h1>
      <section aria-label={copy.title} className="flex flex-col items-center gap-3 px-4 py-16 text-center">
        <span className="rounded-full bg-accent-subtle p-4 text-link">
          <Icon className="size-8" aria-hidden />
        </span>
        <h2 className="text-lg font-semibold">{copy.title}</h2>
        <p className="max-w-sm text-sm text-fg-muted">{copy.text}</p>
        <Link to={paths.login.getHref()} className="mt-2 inline-flex h-10 items-center gap-2 rounded-full bg-accent px-5 text-sm font-medium text-on-accent hover:bg-accent-hover">
          <LogIn className="size-4" aria-hidden /> {t('shell.logIn')}
        </Link>
      </section>
    </div>
  );
}

/** A session the server ended while a personal page was open or reloaded (spec §6): its login toast, then home. */
export function SessionEnded({ message }: { message: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    // The id keeps one toast when the effect runs twice (StrictMode).
    toast.error(message, { id: message });
    navigate(paths.home.getHref(), { replace: true });
  }, [message, navigate]);
  return null;
}
