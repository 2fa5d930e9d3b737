import { useQueryClient } from '@tanstack/react-query';
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
import { ReportMenu } from '@/components/moderation/report-dialog.tsx';
import { TakedownNotice } from '@/components/moderation/takedown-notice.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { deleteTweet, tweetsKey, updateTweet, useChannelTweets, useTweetCache } from '../api/channel-api.ts';
import { useChannelContext } from '../components/channel-context.ts';
import { TweetComposer } from '../components/tweet-composer.tsx';
import { t } from '@/lib/i18n/i18n.ts';

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
      // The server's message says when the edit is held for review (a watched word); the card marks it.
      onSaved({ ...tweet, content, state: data?.state ?? tweet.state, updatedAt: data?.updatedAt ?? new Date().toISOString() });
      toast.success(message || t('tweet.updated'));
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <textarea aria-label={t('tweet.edit')} value={text} onChange={(e) => setText(e.target.value)} rows={3} className="w-full rounded-lg border border-line-strong p-2 text-sm" />
      <div className="mt-1 flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button size="sm" onClick={save} loading={busy} disabled={!text.trim()}>
          {t('common.save')}
        </Button>
      </div>
    </div>
  );
}

export default function ChannelTweetsRoute() {
  const { channel, isOwner } = useChannelContext();
  const me = useStoredUser();
  const queryClient = useQueryClient();
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
      toast.success(message || t('tweet.deleted'));
      setDeleting(null);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const tweets = q.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="max-w-3xl">
      {isOwner && <TweetComposer channel={channel} onPosted={cache.prepend} />}
      {q.isPending ? (
        <Spinner label={t('tweet.loading')} />
      ) : tweets.length === 0 ? (
        <EmptyState kind="tweet" title={t('tweet.none')} text={t('tweet.noneText')} />
      ) : (
        <ul aria-label={t('channel.tweets')}>
          {tweets.map((item) => (
            <li key={item._id}>
              <TweetCard
                tweet={item}
                notice={
                  item.takedown && (
                    <TakedownNotice
                      kind="tweet"
                      id={item._id}
                      notice={item.takedown}
                      onAppealed={() => void queryClient.invalidateQueries({ queryKey: tweetsKey(channel._id) })}
                    />
                  )
                }
                menu={
                  isOwner ? (
                    <ActionMenu
                      label={t('tweet.options')}
                      open={openMenu === item._id}
                      onToggle={() => setOpenMenu((cur) => toggleOpen(cur, item._id))}
                      onClose={() => setOpenMenu(null)}
                      onEdit={() => setEditing(item._id)}
                      onDelete={() => setDeleting(item)}
                    />
                  ) : (
                    me && <ReportMenu kind="tweet" id={item._id} label={t('tweet.moreActions')} />
                  )
                }
                body={
                  editing === item._id ? (
                    <EditBody
                      tweet={item}
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
        title={t('tweet.deleteTitle')}
        text={t('tweet.deleteText')}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
        busy={busy}
      />
    </div>
  );
}
