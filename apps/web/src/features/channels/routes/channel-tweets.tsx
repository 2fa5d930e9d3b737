import { useState } from 'react';
import toast from 'react-hot-toast';
import { TweetCard } from '@/components/media/tweet-card.tsx';
import type { Tweet } from '@/components/media/types.ts';
import { ActionMenu, toggleOpen } from '@/components/ui/action-menu.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { deleteTweet, updateTweet, useChannelTweets, useTweetCache } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';
import { TweetComposer } from '../components/tweet-composer.tsx';

function EditBody({ tweet, onCancel, onSaved }: { tweet: Tweet; onCancel: () => void; onSaved: (tweet: Tweet) => void }) {
  const [text, setText] = useState(tweet.content);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const content = text.trim();
    // Spec §5: an edit with empty content is not saved.
    if (!content) return;
    setBusy(true);
    try {
      const { data, message } = await updateTweet(tweet._id, content);
      onSaved({ ...tweet, content, updatedAt: data?.updatedAt ?? new Date().toISOString() });
      toast.success(message || 'Tweet updated successfully');
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <textarea aria-label="Edit tweet" value={text} onChange={(e) => setText(e.target.value)} rows={3} className="w-full rounded-lg border border-zinc-300 p-2 text-sm" />
      <div className="mt-1 flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" onClick={save} loading={busy} dimmed={!text.trim()}>
          Save
        </Button>
      </div>
    </div>
  );
}

export default function ChannelTweetsRoute() {
  const { channel, isOwner } = useChannelContext();
  const q = useChannelTweets(channel._id);
  const cache = useTweetCache(channel._id);
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Tweet | null>(null);
  const [busy, setBusy] = useState(false);

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const { message } = await deleteTweet(deleting._id);
      cache.remove(deleting._id);
      toast.success(message || 'Tweet deleted successfully');
      setDeleting(null);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const tweets = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="mx-auto max-w-3xl">
      {isOwner && <TweetComposer channel={channel} onPosted={cache.prepend} />}
      {q.isPending ? (
        <Spinner label="Loading tweets" />
      ) : tweets.length === 0 ? (
        <EmptyState kind="tweet" title="No tweets" text="This channel has yet to make a Tweet." />
      ) : (
        <ul aria-label="Tweets">
          {tweets.map((t) => (
            <li key={t._id}>
              <TweetCard
                tweet={t}
                menu={
                  isOwner && (
                    <ActionMenu
                      label="Tweet options"
                      open={openMenu === t._id}
                      onToggle={() => setOpenMenu((cur) => toggleOpen(cur, t._id))}
                      onClose={() => setOpenMenu(null)}
                      onEdit={() => setEditing(t._id)}
                      onDelete={() => setDeleting(t)}
                    />
                  )
                }
                body={
                  editing === t._id ? (
                    <EditBody
                      tweet={t}
                      onCancel={() => setEditing(null)}
                      onSaved={(next) => {
                        cache.replace(next);
                        setEditing(null);
                      }}
                    />
                  ) : undefined
                }
              />
            </li>
          ))}
        </ul>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete tweet"
        text="Are you sure you want to delete this tweet? Its comments are deleted with it."
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
        busy={busy}
      />
    </div>
  );
}
