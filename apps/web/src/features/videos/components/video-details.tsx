import clsx from 'clsx';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Button } from '@/components/ui/button.tsx';
import { TimestampText, type TimestampLinks } from '@/components/ui/timestamp-text.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatCount, formatRelative, plural } from '@/lib/format.ts';
import { useStoredUser } from '@/lib/session.ts';
import type { LikeStatus, Video } from '@/types/api.ts';
import { reactionLabel } from '@/components/ui/like-dislike.tsx';
import { reactToVideo, toggleSubscription } from '../api/videos-api.ts';
import { DownloadAction, PrivacyBadge } from './video-access.tsx';
import { t } from '@/lib/i18n/i18n.ts';

const DESCRIPTION_CUT = 100;

export function Description({ text, timestamps }: { text: string; timestamps?: TimestampLinks }) {
  const [open, setOpen] = useState(false);
  const long = text.length > DESCRIPTION_CUT;
  return (
    <div>
      <p className="whitespace-pre-wrap break-words text-sm">
        <TimestampText text={long && !open ? `${text.slice(0, DESCRIPTION_CUT)}...` : text} links={timestamps} />
      </p>
      {long && (
        <button type="button" aria-expanded={open} onClick={() => setOpen((v) => !v)} className="mt-1 rounded text-sm font-semibold hover:underline">
          {open ? t('watch.readLess') : t('watch.readMore')}
        </button>
      )}
    </div>
  );
}

function SubscribeButton({ channelId, initial, initialCount, onCount }: { channelId: string; initial: boolean; initialCount: number; onCount: (n: number) => void }) {
  const [subscribed, setSubscribed] = useState(initial);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    try {
      const res = await toggleSubscription(channelId);
      setSubscribed(res.isSubscribed);
      // Spec §4: the count moves by one relative to the initial state.
      onCount(initialCount + (res.isSubscribed === initial ? 0 : res.isSubscribed ? 1 : -1));
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setBusy(false);
  };
  return (
    <Button variant={subscribed ? 'secondary' : 'dark'} onClick={() => void toggle()} disabled={busy} aria-pressed={subscribed}>
      {subscribed ? t('watch.subscribed') : t('watch.subscribe')}
    </Button>
  );
}

function LikeButtons({ video }: { video: Video }) {
  const [state, setState] = useState({ likes: video.likes ?? 0, dislikes: video.dislikes ?? 0, likeStatus: (video.likeStatus ?? 0) as LikeStatus });
  const react = async (action: 'like' | 'dislike') => {
    try {
      setState(await reactToVideo(video._id, action));
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  return (
    <div className="flex h-10 items-center rounded-full bg-surface-subtle">
      <button type="button" aria-label={reactionLabel('like', state.likes)} aria-pressed={state.likeStatus === 1} onClick={() => void react('like')} className="flex h-10 items-center gap-2 rounded-l-full px-4 text-sm font-medium hover:bg-surface-strong">
        <ThumbsUp className={clsx('size-5', state.likeStatus === 1 && 'fill-current')} aria-hidden />
        {formatCount(state.likes)}
      </button>
      <span className="h-6 w-px bg-surface-strong" aria-hidden />
      <button type="button" aria-label={reactionLabel('dislike', state.dislikes)} aria-pressed={state.likeStatus === -1} onClick={() => void react('dislike')} className="flex h-10 items-center gap-2 rounded-r-full px-4 text-sm font-medium hover:bg-surface-strong">
        <ThumbsDown className={clsx('size-5', state.likeStatus === -1 && 'fill-current')} aria-hidden />
        {formatCount(state.dislikes)}
      </button>
    </div>
  );
}

/** Title, channel block with subscribe, like/dislike, extra actions (save), views, date and description (its timestamps seek the player). */
export function VideoDetails({ video, actions, timestamps }: { video: Video; actions?: ReactNode; timestamps?: TimestampLinks }) {
  const user = useStoredUser();
  const [subscribers, setSubscribers] = useState(video.subscribers ?? 0);
  const own = user?.userId === video.owner._id;
  return (
    <div className="mt-3 flex flex-col gap-3">
      {own && <PrivacyBadge video={video} />}
      <h1 className="text-lg font-bold leading-snug sm:text-xl">{video.title}</h1>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <Link to={paths.channel.videos.getHref(video.owner.userName)} className="flex min-w-0 items-center gap-3 rounded-lg">
            <Avatar src={video.owner.avatar?.url} fullName={video.owner.fullName} size={40} />
            <span className="min-w-0">
              <span className="block truncate font-semibold">{video.owner.fullName}</span>
              <span className="block text-xs text-fg-muted">{plural(subscribers, 'count.subscribers')}</span>
            </span>
          </Link>
          {!own && <SubscribeButton channelId={video.owner._id} initial={video.isSubscribed ?? false} initialCount={video.subscribers ?? 0} onCount={setSubscribers} />}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <LikeButtons video={video} />
          {actions}
          <DownloadAction video={video} own={own} />
        </div>
      </div>
      <div className="rounded-xl bg-surface-subtle p-3">
        <p className="mb-1 text-sm font-semibold">
          {plural(video.views, 'count.views')} · <time dateTime={video.createdAt}>{formatRelative(video.createdAt)}</time>
        </p>
        <Description text={video.description} timestamps={timestamps} />
      </div>
    </div>
  );
}
