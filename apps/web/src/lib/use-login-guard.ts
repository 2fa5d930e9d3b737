import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths.ts';
import { isApiError } from '@/lib/api-client.ts';

/**
 * Spec §6: a personal list answered 401 toasts its login message and goes home. With
 * `redirectOnError` any other failure goes home too (spec §2 subscriptions).
 */
export function useLoginGuard(error: unknown, loginMessage: string, redirectOnError = false) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!error) return;
    const unauthorized = isApiError(error, 401);
    if (!unauthorized && !redirectOnError) return;
    // The id keeps one toast when the effect runs twice (StrictMode, refetch).
    if (unauthorized) toast.error(loginMessage, { id: loginMessage });
    navigate(paths.home.getHref(), { replace: true });
  }, [error, loginMessage, redirectOnError, navigate]);
}
