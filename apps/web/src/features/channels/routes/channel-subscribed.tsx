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

  if (q.isPending) return <Spinner label="Loading channels" />;
  const all = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (all.length === 0) return <EmptyState kind="subscriber" title="No people subscribed" text="This channel has yet to subscribe a new channel." />;
  const shown = filterSubscribed(all, applied);

  return (
    <div className="mx-auto max-w-3xl">
      <form role="search" aria-label="Subscribed channels" onSubmit={apply} className="mb-4 flex">
        <input
          type="search"
          aria-label="Search subscribed channels"
          placeholder="Search"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          className="h-10 min-w-0 flex-1 rounded-l-full border border-zinc-300 px-4 text-sm"
        />
        <button type="submit" aria-label="Search channels" title="Search channels" className="flex h-10 w-12 items-center justify-center rounded-r-full border border-l-0 border-zinc-300 bg-zinc-50 hover:bg-zinc-100">
          <Search className="size-5" aria-hidden />
        </button>
      </form>
      {shown.length === 0 ? (
        <EmptyState kind="channel" title="No channels found" />
      ) : (
        <ul aria-label="Subscribed channels" className="divide-y divide-zinc-200">
          {shown.map(({ channel: c }) => (
            <li key={c._id}>
              <Link to={paths.channel.videos.getHref(c.userName)} className="flex items-center gap-3 rounded-lg px-2 py-3 hover:bg-zinc-50">
                <Avatar src={c.avatar?.url} fullName={c.fullName} size={50} />
                <span className="min-w-0">
                  <span className="block truncate font-semibold">{c.fullName}</span>
                  <span className="block text-sm text-zinc-600">{plural(c.subscriberCount, 'subscriber')}</span>
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
