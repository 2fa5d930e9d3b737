import clsx from 'clsx';
import { ThumbsDown, ThumbsUp } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { api, errorMessage } from '@/lib/api-client.ts';
import { formatCount } from '@/lib/format.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

export type LikeStatus = 1 | -1 | 0;

/**
 * The accessible name of a like/dislike button: the verb, what it is about, and the count it shows,
 * so the name contains the visible text (WCAG 2.5.3, axe label-content-name-mismatch; axe
 * ignores text in parentheses, hence the comma).
 */
export function reactionLabel(action: 'like' | 'dislike', count: number, what: 'item' | 'comment' = 'item'): string {
  const key: Record<typeof what, Record<typeof action, MessageKey>> = {
    item: { like: 'watch.likeCount', dislike: 'watch.dislikeCount' },
    comment: { like: 'comments.likeComment', dislike: 'comments.dislikeComment' },
  };
  return t(key[what][action], { count: formatCount(count) });
}
interface LikeState {
  likes: number;
  dislikes: number;
  likeStatus: LikeStatus;
}

/**
 * Like/dislike buttons of a tweet or comment (spec §4): mutually exclusive, clicking the
 * active one removes it. The server answers the new counts, which replace the local ones.
 */
export function LikeDislike({ entityType, entityId, initial }: { entityType: 'tweet' | 'comment'; entityId: string; initial: LikeState }) {
  const [state, setState] = useState<LikeState>(initial);
  const [busy, setBusy] = useState(false);

  const send = async (action: 'like' | 'dislike') => {
    if (busy) return;
    setBusy(true);
    try {
      const { data } = await api.post<LikeState>(`likes/${entityType}/${entityId}/${action}`);
      setState({ likes: data.likes, dislikes: data.dislikes, likeStatus: data.likeStatus });
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const button = (action: 'like' | 'dislike', active: boolean, count: number) => {
    const Icon = action === 'like' ? ThumbsUp : ThumbsDown;
    return (
      <button
        type="button"
        aria-pressed={active}
        aria-label={reactionLabel(action, count)}
        onClick={() => send(action)}
        className={clsx('flex h-8 items-center gap-1.5 rounded-full px-2.5 text-sm hover:bg-surface-subtle', active && 'text-link')}
      >
        <Icon className={clsx('size-4', active && 'fill-current')} aria-hidden />
        <span>{formatCount(count)}</span>
      </button>
    );
  };

  return (
    <div className="flex items-center gap-1">
      {button('like', state.likeStatus === 1, state.likes)}
      {button('dislike', state.likeStatus === -1, state.dislikes)}
    </div>
  );
}
