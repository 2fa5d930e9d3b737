import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { verifyEmail } from '../api/auth-api.ts';
import { AuthCard } from '../components/auth-card.tsx';

function VerifiedImage() {
  return (
    <svg viewBox="0 0 120 120" width="120" height="120" role="img" aria-label="Email verified" className="mx-auto">
      <circle cx="60" cy="60" r="56" fill="#dcfce7" />
      <rect x="28" y="38" width="64" height="44" rx="6" fill="#fff" stroke="#16a34a" strokeWidth="4" />
      <path d="M30 42l30 22 30-22" fill="none" stroke="#16a34a" strokeWidth="4" strokeLinejoin="round" />
      <circle cx="88" cy="82" r="16" fill="#16a34a" />
      <path d="M80 82l6 6 10-11" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export default function EmailVerificationRoute() {
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
    <AuthCard title="Email verification">
      <div className="flex flex-col items-center gap-3 text-center" aria-live="polite">
        {failed ? (
          <>
            <p className="font-semibold text-red-700">Invalid or expired verification link.</p>
            <p className="text-sm text-zinc-600">Please request a new verification email.</p>
          </>
        ) : result.data ? (
          <>
            <VerifiedImage />
            <p className="font-semibold text-green-700">Email Verified successfully</p>
          </>
        ) : (
          <>
            <Spinner label="Verifying" className="p-2" />
            <p>Verifying...</p>
          </>
        )}
        <Link to={paths.login.getHref()} className="mt-2 flex h-10 items-center rounded-full bg-blue-600 px-6 text-sm font-medium text-white hover:bg-blue-700">
          Login
        </Link>
      </div>
    </AuthCard>
  );
}
