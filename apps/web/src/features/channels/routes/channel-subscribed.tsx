import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { plural } from '@/lib/format.ts';
import { filterSubscribed, useSubscribedChannels } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function ChannelSubscribedRoute() {
  const { channel } = useChannelContext();
  const q = useSubscribedChannels(channel._id);
  const [typed, setTyped] = useState('');
  // Spec §5: the filter applies when the search button is clicked, not while typing.
  const [applied, setApplied] = useState('');
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setApplied(typed);
  };

  if (q.isPending) return <Spinner label={t('channel.loadingChannels')} />;
  const all = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (all.length === 0) return <EmptyState kind="subscriber" title={t('channel.noSubscribed')} text={t('channel.noSubscribedText')} />;
  const shown = filterSubscribed(all, applied);

  return (
    <div className="max-w-3xl">
      <form role="search" aria-label={t('channel.subscribedChannels')} onSubmit={apply} className="mb-4 flex">
        <input
          type="search"
          aria-label={t('channel.searchSubscribed')}
          placeholder={t('shell.search')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          className="h-10 min-w-0 flex-1 rounded-l-full border border-line-strong px-4 text-sm"
        />
        <button type="submit" aria-label={t('channel.searchChannels')} title={t('channel.searchChannels')} className="flex h-10 w-12 items-center justify-center rounded-r-full border border-l-0 border-line-strong bg-surface-muted hover:bg-surface-subtle">
          <Search className="size-5" aria-hidden />
        </button>
      </form>
      {shown.length === 0 ? (
        <EmptyState kind="channel" title={t('search.noChannels')} />
      ) : (
        <ul aria-label={t('channel.subscribedChannels')} className="divide-y divide-line">
          {shown.map(({ channel: c }) => (
            <li key={c._id}>
              <Link to={paths.channel.videos.getHref(c.userName)} className="flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-surface-muted">
                <Avatar src={c.avatar?.url} fullName={c.fullName} size={50} />
                <span className="min-w-0">
                  <span className="block truncate font-semibold">{c.fullName}</span>
                  <span className="block text-sm text-fg-muted">{plural(c.subscriberCount, 'count.subscribers')}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </div>
  );
}
