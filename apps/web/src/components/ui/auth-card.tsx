import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useInstance } from '@/lib/public-config.ts';

/** The centred card the account screens (outside the main layout) sit in. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { name } = useInstance().instance;
  return (
    <main className="flex min-h-screen items-start justify-center bg-surface-muted px-4 py-10 xs:items-center">
      <div className="w-full max-w-sm rounded-2xl border border-line bg-surface p-6 shadow-sm">
        <Link to={paths.home.getHref()} className="mb-4 flex items-center justify-center gap-2 rounded-lg text-xl font-bold" aria-label={t('shell.homeLink', { name })}>
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span className="min-w-0 break-words">{name}</span>
        </Link>
        <h1 className="mb-5 text-center text-lg font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}
