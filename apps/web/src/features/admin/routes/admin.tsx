import { isStaff } from '@glimpse/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { meQueryOptions } from '@/features/auth/api/auth-api.ts';

export const ADMIN_ONLY_MESSAGE = 'Only moderators and admins can open the administration.';

/**
 * The staff area. The role comes from GET users/me (not the stored copy), so a revoked moderator
 * is sent home; the server checks the role again on every staff call.
 */
export default function Administration() {
  const me = useQuery(meQueryOptions);
  const navigate = useNavigate();
  const role = me.data?.role;
  const refused = !me.isPending && !isStaff(role);

  useEffect(() => {
    if (!refused) return;
    toast.error(ADMIN_ONLY_MESSAGE, { id: ADMIN_ONLY_MESSAGE });
    navigate(paths.home.getHref(), { replace: true });
  }, [refused, navigate]);

  if (me.isPending) return <Spinner />;
  if (refused) return null;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">Administration</h1>
      <p className="text-sm text-zinc-600">
        Your role: <strong className="font-semibold text-zinc-900">{role}</strong>
      </p>
      <EmptyState kind="moderation" title="Moderation tools are coming" text="Reports, the moderation queue and instance settings will appear here." />
    </div>
  );
}
