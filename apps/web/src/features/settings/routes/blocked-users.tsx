import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { remoteBlocksOptions, unblockRemote } from '@/lib/federation.ts';
import { useChannelBlocks, useUnblock } from '../api/settings-api.ts';
import { SettingsHeader } from '../components/settings-header.tsx';
import { useOwnUser } from '../components/use-own-user.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Users blocked from commenting on the owner's videos and tweets, and accounts of other servers, each with Unblock. */
export default function BlockedUsersRoute() {
  useDocumentTitle(t('settings.blockedUsers'));
  const user = useOwnUser();
  const blocks = useChannelBlocks();
  const unblock = useUnblock();
  const list = blocks.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <SettingsHeader userName={user.userName} />
      <section aria-labelledby="blocked-users" className="max-w-xl py-6">
        <h2 id="blocked-users" className="mb-1 text-lg font-semibold">
          {t('settings.blockedUsers')}
        </h2>
        <p className="mb-4 text-sm text-fg-muted">{t('settings.blockedText')}</p>
        {blocks.isPending ? (
          <Spinner label={t('settings.loadingBlocked')} />
        ) : blocks.isError ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(blocks.error)}
          </p>
        ) : list.length === 0 ? (
          <EmptyState kind="channel" title={t('settings.noBlocked')} text={t('settings.noBlockedText')} />
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
            {list.map(({ user: blocked }) => (
              <li key={blocked._id} className="flex items-center gap-3 p-3">
                <Avatar src={blocked.avatar?.url} fullName={blocked.fullName} size={36} />
                <p className="min-w-0 flex-1 truncate text-sm">
                  <span className="font-medium">{blocked.fullName}</span> <span className="text-fg-muted">@{blocked.userName}</span>
                </p>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={t('settings.unblockName', { name: blocked.fullName })}
                  disabled={unblock.isPending}
                  onClick={() =>
                    unblock.mutate(blocked._id, { onSuccess: () => toast.success(t('settings.userUnblocked')), onError: (err) => toast.error(errorMessage(err)) })
                  }
                >
                  {t('settings.unblock')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {blocks.hasNextPage && (
          <Button variant="ghost" className="mt-2" loading={blocks.isFetchingNextPage} onClick={() => void blocks.fetchNextPage()}>
            {t('common.showMore')}
          </Button>
        )}
      </section>
      <RemoteBlocks />
    </div>
  );
}

/** The remote accounts the channel blocks (issue #35): their Notes on its videos are not kept. */
function RemoteBlocks() {
  const qc = useQueryClient();
  const blocks = useQuery(remoteBlocksOptions());
  const unblock = useMutation({
    mutationFn: unblockRemote,
    onSuccess: () => {
      toast.success(t('federation.remoteUnblocked'));
      void qc.invalidateQueries({ queryKey: remoteBlocksOptions().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const list = blocks.data ?? [];
  return (
    <section aria-labelledby="blocked-remote" className="max-w-xl pb-6">
      <h2 id="blocked-remote" className="mb-1 text-lg font-semibold">
        {t('federation.remoteBlocked')}
      </h2>
      <p className="mb-4 text-sm text-fg-muted">{t('federation.remoteBlockedText')}</p>
      {blocks.isPending ? (
        <Spinner label={t('federation.remoteBlocked')} />
      ) : blocks.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(blocks.error)}
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('federation.noRemoteBlocked')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
          {list.map((b) => (
            <li key={b.actorId} className="flex items-center gap-3 p-3">
              <p className="min-w-0 flex-1 truncate text-sm">
                <span className="font-medium">{b.name}</span> <span className="text-fg-muted">{b.handle}</span>
              </p>
              <Button size="sm" variant="secondary" aria-label={t('settings.unblockName', { name: b.handle })} disabled={unblock.isPending} onClick={() => unblock.mutate(b.actorId)}>
                {t('settings.unblock')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
