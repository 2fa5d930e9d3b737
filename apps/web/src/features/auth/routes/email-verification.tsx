import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/ui/auth-card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { verifyEmail } from '../api/auth-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

function VerifiedImage() {
  return (
    <svg viewBox="0 0 120 120" width="120" height="120" role="img" aria-label={t('auth.emailVerified')} className="mx-auto">
      <circle cx="60" cy="60" r="56" className="fill-success-subtle" />
      <rect x="28" y="38" width="64" height="44" rx="6" className="fill-surface stroke-success" strokeWidth="4" />
      <path d="M30 42l30 22 30-22" fill="none" className="stroke-success" strokeWidth="4" strokeLinejoin="round" />
      <circle cx="88" cy="82" r="16" className="fill-success" />
      <path d="M80 82l6 6 10-11" fill="none" className="stroke-canvas" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export default function EmailVerificationRoute() {
  useDocumentTitle(t('auth.emailVerification'));
  const token = useSearchParams()[0].get('token') ?? '';
  // A query, not an effect: the single-use token is sent once even under StrictMode.
  const result = useQuery({
    queryKey: ['auth', 'email-verification', token],
    queryFn: () => verifyEmail(token),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const failed = token === '' || result.isError || result.data === false;

  return (
    <AuthCard title={t('auth.emailVerification')}>
      <div className="flex flex-col items-center gap-3 text-center" aria-live="polite">
        {failed ? (
          <>
            <p className="font-semibold text-danger">{t('auth.invalidLink')}</p>
            <p className="text-sm text-fg-muted">{t('auth.requestNew')}</p>
          </>
        ) : result.data ? (
          <>
            <VerifiedImage />
            <p className="font-semibold text-success">{t('auth.verifiedOk')}</p>
          </>
        ) : (
          <>
            <Spinner label={t('auth.verifying')} className="p-2" />
            <p>{t('auth.verifyingDots')}</p>
          </>
        )}
        <Link to={paths.login.getHref()} className="mt-2 flex h-10 items-center rounded-full bg-accent px-6 text-sm font-medium text-on-accent hover:bg-accent-hover">
          {t('auth.login')}
        </Link>
      </div>
    </AuthCard>
  );
}
