import type { FeedTokenCreated } from '@glimpse/contract';
import { Copy, Rss } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { useCreateFeedToken, useFeedToken, useRevokeFeedToken } from '../api/settings-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** A feed address in a read-only field, with a button that copies it. */
function FeedAddress({ format, url }: { format: 'RSS' | 'Atom'; url: string }) {
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => toast.success(t('settings.addressCopied', { format })),
      () => toast.error(t('settings.copyFailed')),
    );
  return (
    <div className="flex items-end gap-2">
      <TextField label={t('settings.feedAddress', { format })} value={url} readOnly className="min-w-0 flex-1" onFocus={(e) => e.currentTarget.select()} />
      <Button variant="secondary" onClick={() => void copy()} aria-label={t('settings.copyAddress', { format })}>
        <Copy className="size-4" aria-hidden /> {t('settings.copy')}
      </Button>
    </div>
  );
}

/**
 * Settings: the private RSS/Atom feed of the channels the user subscribes to. Its address holds a
 * secret token that the server keeps only hashed, so the addresses are shown once, right after
 * they are made; resetting makes new ones (the old stop working) and revoking ends the feed.
 */
export function PrivateFeed() {
  const status = useFeedToken();
  const create = useCreateFeedToken();
  const revoke = useRevokeFeedToken();
  const [created, setCreated] = useState<FeedTokenCreated | null>(null);
  const exists = status.data?.exists ?? false;

  const onCreate = () =>
    create.mutate(undefined, {
      onSuccess: (answer) => {
        setCreated(answer);
        toast.success(exists ? t('settings.feedNewAddresses') : t('settings.feedCreated'));
      },
      onError: (err) => toast.error(errorMessage(err)),
    });
  const onRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setCreated(null);
        toast.success(t('settings.feedRevoked'));
      },
      onError: (err) => toast.error(errorMessage(err)),
    });

  return (
    <section aria-labelledby="private-feed" className="max-w-2xl pb-8">
      <h2 id="private-feed" className="flex items-center gap-2 text-lg font-semibold">
        <Rss className="size-5" aria-hidden /> {t('settings.feeds')}
      </h2>
      <div className="mt-3 flex flex-col gap-4 rounded-xl border border-line p-4">
        <p className="text-sm text-fg-muted">
          {t('settings.feedsText')}
        </p>
        {status.isPending ? (
          <Spinner label={t('settings.loadingFeed')} />
        ) : status.isError ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(status.error)}
          </p>
        ) : (
          <>
            <p className="text-sm font-medium">
              {exists && status.data.createdAt ? t('settings.feedSince', { date: formatDate(status.data.createdAt) }) : t('settings.noFeed')}
            </p>
            {created && (
              <div role="group" aria-labelledby="feed-addresses" className="flex flex-col gap-3 rounded-lg bg-surface-muted p-3">
                <p id="feed-addresses" className="text-sm text-fg-muted">
                  {t('settings.copyNow')}
                </p>
                <FeedAddress format="RSS" url={created.rss} />
                <FeedAddress format="Atom" url={created.atom} />
              </div>
            )}
            <div className="flex flex-wrap justify-end gap-2">
              {exists && (
                <Button variant="secondary" onClick={onRevoke} loading={revoke.isPending} disabled={create.isPending}>
                  {t('settings.revoke')}
                </Button>
              )}
              <Button onClick={onCreate} loading={create.isPending} disabled={revoke.isPending}>
                {exists ? t('settings.resetAddress') : t('settings.createFeed')}
              </Button>
            </div>
            {exists && !created && <p className="text-xs text-fg-muted">{t('settings.resetHint')}</p>}
          </>
        )}
      </div>
    </section>
  );
}
