import { useMutation } from '@tanstack/react-query';
import { Globe } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { followRemote } from '@/lib/federation.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useStoredUser } from '@/lib/session.ts';

/** Shown above the results when the search is `@name@host` or an address: follow that channel of another server. */
export function RemoteFollow({ handle }: { handle: string }) {
  const user = useStoredUser();
  const navigate = useNavigate();
  const follow = useMutation({
    mutationFn: () => followRemote(handle),
    onSuccess: (channel) => navigate(paths.remoteChannel.getHref(channel._id)),
  });
  return (
    <section aria-label={t('federation.followTitle')} className="mb-4 flex flex-wrap items-center gap-3 rounded-xl border border-line p-4">
      <Globe className="size-6 text-link" aria-hidden />
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold">{t('federation.followTitle')}</h2>
        <p className="text-sm text-fg-muted [overflow-wrap:anywhere]">{user ? t('federation.followText', { handle }) : t('federation.loginToFollow')}</p>
        {follow.isError && (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(follow.error)}
          </p>
        )}
      </div>
      {user && (
        <Button loading={follow.isPending} onClick={() => follow.mutate()}>
          {t('federation.follow')}
        </Button>
      )}
    </section>
  );
}
