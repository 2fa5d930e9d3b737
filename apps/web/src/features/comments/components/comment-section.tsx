import clsx from 'clsx';
import type { TakedownNotice as TakedownNoticeData } from '@glimpse/contract';
import { ChevronDown, ChevronUp, EllipsisVertical, MessageSquareOff, Pin, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { HeldBadge } from '@/components/ui/held-badge.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { reactionLabel } from '@/components/ui/like-dislike.tsx';
import { TimestampText, type TimestampLinks } from '@/components/ui/timestamp-text.tsx';
import { paths } from '@/config/paths.ts';
import { ReportDialog, ReportMenu } from '@/components/moderation/report-dialog.tsx';
import { TakedownNotice } from '@/components/moderation/takedown-notice.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { followEventStream } from '@/lib/event-stream.ts';
import { formatCount, formatRelative, plural } from '@/lib/format.ts';
import { useStoredUser, type StoredUser } from '@/lib/session.ts';
import type { Comment } from '@/types/api.ts';
import {
  approveComment,
  blockFromChannel,
  deleteCommentCall,
  editComment,
  fetchComments,
  pinComment,
  postComment,
  reactToComment,
  type CommentEntityType,
} from '../api/comments-api.ts';
import { addComments, createRoot, deleteComment, updateComment, type CommentNode } from '../comment-tree.ts';
import { CommentBox } from './comment-box.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** Replies indent only while the path is shallower than this (spec §9). */
const MAX_INDENT_DEPTH = 5;

interface Paging {
  cursor: string | null;
  hasMore: boolean;
  loading: boolean;
}
const startPaging: Paging = { cursor: null, hasMore: true, loading: false };

export interface CommentSectionProps {
  entityType: CommentEntityType;
  entityId: string;
  /** The total shown in the title ('N Comments'); kept up to date as comments come and go. */
  count?: number;
  /** Called with the new total after a comment is added or deleted. */
  onCountChange?: (count: number) => void;
  /** The channel that owns the video or tweet: it moderates the comments (approve, pin, delete, block). */
  channel?: { _id: string; fullName: string };
  /** False when the video's owner turned comments off: a notice instead of the box and the list. */
  commentsEnabled?: boolean;
  /**
   * The watch page's one-column layout: the section starts as a teaser (count and first comment)
   * that opens the box and the list, so the similar videos are not pushed under every comment.
   */
  folded?: boolean;
  /** On a watch page: the comments' timestamps seek its player. */
  timestamps?: TimestampLinks;
  /**
   * A live's chat: titled so, with no total (lives keep none), and new comments arrive without a
   * reload through the live's chat stream (Server-Sent Events, with the login's token, so the owner
   * of a private live hears theirs), which names no comment: the first page is read again and what
   * is new goes on top.
   */
  live?: boolean;
}

/** Threaded comments of a video or tweet: box, 10 per page, replies, edit/delete, likes, creator moderation. */
export function CommentSection(props: CommentSectionProps) {
  if (props.commentsEnabled === false) {
    return (
      <section aria-labelledby="comments-title" className="mt-6">
        <h2 id="comments-title" className="sr-only">
          {t('comments.heading')}
        </h2>
        <p className="flex items-center gap-2 rounded-lg bg-surface-subtle p-4 text-sm text-fg-muted">
          <MessageSquareOff className="size-5 shrink-0" aria-hidden />
          {t('comments.off')}
        </p>
      </section>
    );
  }
  return <Section key={`${props.entityType}:${props.entityId}`} {...props} />;
}

function Section({ entityType, entityId, count = 0, onCountChange, channel, folded = false, timestamps, live = false }: CommentSectionProps) {
  const user = useStoredUser();
  const [unfolded, setUnfolded] = useState(false);
  const isChannelOwner = Boolean(user && channel && user.userId === channel._id);
  const [tree, setTree] = useState<CommentNode>(createRoot);
  const [total, setTotal] = useState(count);
  const [paging, setPaging] = useState<Record<string, Paging>>({ root: { ...startPaging, loading: true } });
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const inFlight = useRef(new Set<string>());

  const changeTotal = (delta: number) =>
    setTotal((t) => {
      const next = Math.max(0, t + delta);
      onCountChange?.(next);
      return next;
    });

  const cursors = useRef(new Map<string, string | null>());

  /** Fetch the next page under `path` ([] = top level); state changes only once it answers. */
  const fetchMore = useCallback(
    async (path: string[]) => {
      const key = path.join('/') || 'root';
      if (inFlight.current.has(key)) return;
      inFlight.current.add(key);
      try {
        const page = await fetchComments(entityType, entityId, path.at(-1) ?? null, cursors.current.get(key) ?? null);
        cursors.current.set(key, page.nextCursor);
        setTree((t) => addComments(t, path, page.items));
        setPaging((p) => ({ ...p, [key]: { cursor: page.nextCursor, hasMore: page.hasNextPage, loading: false } }));
      } catch (err) {
        // A failure ends loading (spec §4).
        console.warn('Loading comments failed', err);
        setPaging((p) => ({ ...p, [key]: { ...(p[key] ?? startPaging), hasMore: false, loading: false } }));
      } finally {
        inFlight.current.delete(key);
      }
    },
    [entityType, entityId],
  );

  const loadMore = (path: string[]) => {
    const key = path.join('/') || 'root';
    setPaging((p) => ({ ...p, [key]: { ...(p[key] ?? startPaging), loading: true } }));
    return fetchMore(path);
  };

  useEffect(() => {
    void fetchMore([]);
  }, [fetchMore]);

  // Opened again when the login changes: a private live's chat is heard with its owner's token only.
  const userId = user?.userId ?? null;
  useEffect(() => {
    if (!live) return;
    const stop = new AbortController();
    const onEvent = (event: string) => {
      if (event !== 'comment') return;
      fetchComments(entityType, entityId, null, null)
        .then((page) => setTree((t) => addComments(t, [], page.items, 'start')))
        .catch((err: unknown) => console.warn('Loading new chat comments failed', err));
    };
    void followEventStream(`lives/${encodeURIComponent(entityId)}/chat/stream`, { login: 'optional', onEvent }, stop.signal);
    return () => stop.abort();
  }, [live, entityType, entityId, userId]);

  const toggleReplies = (path: string[]) => {
    const id = path.at(-1)!;
    const open = !expanded.has(id);
    setExpanded((s) => {
      const n = new Set(s);
      if (open) n.add(id);
      else n.delete(id);
      return n;
    });
    if (open && !paging[path.join('/')]) void loadMore(path);
  };

  const add = async (path: string[], content: string): Promise<boolean> => {
    if (!user) {
      toast.error(t('comments.loginToComment'));
      return false;
    }
    try {
      const parentId = path.at(-1) ?? null;
      const { comment: created, message } = await postComment(entityType, entityId, parentId, content);
      const held = created.state === 'held';
      const comment: Comment = {
        content,
        entityType,
        entityId,
        parentId,
        replies: 0,
        likes: 0,
        dislikes: 0,
        likeStatus: 0,
        state: 'published',
        pinned: false,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        ...created,
        owner: created.owner ?? { _id: user.userId, userName: user.userName, fullName: user.fullName, avatar: user.avatar },
      };
      setTree((t) => {
        let next = addComments(t, path, [comment], 'start');
        if (path.length > 0 && !held) {
          const parent = findValue(t, path);
          if (parent) next = updateComment(next, path, { replies: parent.replies + 1 });
        }
        return next;
      });
      if (parentId) {
        setExpanded((s) => new Set(s).add(parentId));
        setReplyTo(null);
      }
      // A held comment counts nowhere until the channel approves it; its author is told so.
      if (held) toast(message, { id: message });
      else changeTotal(1);
      return true;
    } catch (err) {
      toast.error(errorMessage(err));
      return false;
    }
  };

  const saveEdit = async (path: string[], previous: string, content: string): Promise<boolean> => {
    if (content === previous.trim()) {
      setEditing(null);
      return true;
    }
    try {
      const before = findValue(tree, path)?.state;
      const { comment: saved, message } = await editComment(path.at(-1)!, content);
      const state = saved?.state ?? before ?? 'published';
      setTree((t) => updateComment(t, path, { content, state, updatedAt: new Date().toISOString() }));
      if (state !== before) changeTotal(state === 'held' ? -1 : 1);
      if (state === 'held') toast(message, { id: message });
      setEditing(null);
      return true;
    } catch (err) {
      toast.error(errorMessage(err));
      return false;
    }
  };

  const confirmDelete = async () => {
    const path = deleting;
    if (!path) return;
    try {
      const deletedCount = await deleteCommentCall(path.at(-1)!);
      setTree((t) => {
        let next = deleteComment(t, path);
        const parentPath = path.slice(0, -1);
        const parent = parentPath.length ? findValue(t, parentPath) : undefined;
        if (parent) next = updateComment(next, parentPath, { replies: Math.max(0, parent.replies - 1) });
        return next;
      });
      changeTotal(-deletedCount);
      toast.success(t('comments.deleted'));
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setDeleting(null);
  };

  const approve = async (path: string[]) => {
    try {
      await approveComment(path.at(-1)!);
      setTree((t) => updateComment(t, path, { state: 'published' }));
      changeTotal(1);
      toast.success(t('comments.approved'));
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setOpenMenu(null);
  };

  /** Pins one top-level comment (moved first, the previous one unpinned) or unpins it. */
  const pin = async (id: string, pinned: boolean) => {
    try {
      await pinComment(id, pinned);
      setTree((t) => {
        const children = t.children.map((n) => ({ ...n, value: { ...n.value, pinned: pinned && n.value._id === id } }));
        const first = children.filter((n) => n.value.pinned);
        return { ...t, children: [...first, ...children.filter((n) => !n.value.pinned)] };
      });
      toast.success(pinned ? t('comments.pinned') : t('comments.unpinned'));
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setOpenMenu(null);
  };

  const block = async (userId: string) => {
    try {
      await blockFromChannel(userId);
      toast.success(t('comments.userBlocked'));
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setOpenMenu(null);
  };

  const react = async (path: string[], action: 'like' | 'dislike') => {
    try {
      const counts = await reactToComment(path.at(-1)!, action);
      setTree((t) => updateComment(t, path, counts));
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  const top = paging.root ?? startPaging;
  const ctl: Ctl = {
    user,
    entityType,
    timestamps,
    channel: isChannelOwner ? channel : undefined,
    pinnedBy: channel?.fullName,
    expanded,
    paging,
    openMenu,
    replyTo,
    editing,
    // One menu open at a time; reopening the same one closes all.
    toggleMenu: (id) => setOpenMenu((m) => (m === id ? null : id)),
    setReplyTo,
    setEditing: (id) => {
      setEditing(id);
      setOpenMenu(null);
    },
    askDelete: (path) => {
      setDeleting(path);
      setOpenMenu(null);
    },
    toggleReplies,
    loadMore,
    add,
    saveEdit,
    react,
    approve,
    pin,
    block,
    setTakedown: (path, takedown) => setTree((t) => updateComment(t, path, { takedown })),
  };

  const title = live ? t('live.chat') : plural(total, 'comments.title');
  if (folded && !unfolded) return <CommentTeaser title={title} first={tree.children[0]?.value} onOpen={() => setUnfolded(true)} />;

  return (
    <section aria-labelledby="comments-title" className="mt-6">
      <CommentsTitle title={title} className="mb-4 text-lg">
        {folded && (
          <Button variant="ghost" size="sm" onClick={() => setUnfolded(false)} aria-expanded="true">
            <ChevronUp className="size-4" aria-hidden /> {t('comments.hide')}
          </Button>
        )}
      </CommentsTitle>
      {user ? (
        <div className="mb-6 flex gap-3">
          <Avatar src={user.avatar?.url} fullName={user.fullName} size={40} />
          <div className="flex-1">
            <CommentBox label={t('comments.add')} submitLabel={t('comments.submit')} onSubmit={(content) => add([], content)} />
          </div>
        </div>
      ) : (
        <p className="mb-6 text-sm text-fg-muted">
          <Link to={paths.login.getHref()} className="rounded font-medium text-link hover:underline">
            {t('comments.logIn')}
          </Link>{' '}
          {t('comments.toAdd')}
        </p>
      )}
      {tree.children.length === 0 && !top.loading && !top.hasMore ? (
        <EmptyState kind="comment" title={t('comments.none')} text={t('comments.beFirst')} />
      ) : (
        <ul className="flex flex-col gap-5">
          {tree.children.map((node) => (
            <CommentItem key={node.value._id} node={node} path={[node.value._id]} ctl={ctl} />
          ))}
        </ul>
      )}
      <InfiniteSentinel hasMore={top.hasMore && tree.children.length > 0} loading={top.loading} onVisible={() => void loadMore([])} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('comments.deleteTitle')}
        text={t('comments.deleteText')}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}

/** The section's 'N Comments' heading (the section's label) with a control at the end of the line. */
function CommentsTitle({ title, className, children }: { title: string; className: string; children: ReactNode }) {
  return (
    <div className={clsx('flex items-center justify-between gap-2', className)}>
      <h2 id="comments-title" className="font-semibold">
        {title}
      </h2>
      {children}
    </div>
  );
}

/** The folded section: the count and the first comment on a card that opens the list (one button over it all). */
function CommentTeaser({ title, first, onOpen }: { title: string; first?: Comment; onOpen: () => void }) {
  return (
    <section aria-labelledby="comments-title" className="relative mt-6 flex flex-col gap-2 rounded-xl bg-surface-subtle p-3 hover:bg-surface-strong">
      <CommentsTitle title={title} className="text-sm">
        <ChevronDown className="size-4 shrink-0" aria-hidden />
      </CommentsTitle>
      {first ? (
        <p className="flex min-w-0 items-center gap-2 text-sm">
          <Avatar src={first.owner.avatar?.url} fullName={first.owner.fullName} size={24} />
          <span className="line-clamp-2 min-w-0 flex-1 break-words">{first.content}</span>
        </p>
      ) : (
        <p className="text-sm text-fg-muted">{t('comments.teaserAdd')}</p>
      )}
      <button type="button" aria-expanded="false" onClick={onOpen} className="absolute inset-0 rounded-xl">
        <span className="sr-only">{t('comments.show')}</span>
      </button>
    </section>
  );
}

function findValue(root: CommentNode, path: string[]): Comment | undefined {
  let node: CommentNode | undefined = root;
  for (const id of path) node = node?.children.find((c) => c.value._id === id);
  return node?.value;
}

interface Ctl {
  user: StoredUser | null;
  entityType: CommentEntityType;
  timestamps?: TimestampLinks;
  /** Set when the viewer owns the video or tweet: they moderate its comments. */
  channel?: { _id: string; fullName: string };
  pinnedBy?: string;
  approve: (path: string[]) => Promise<void>;
  pin: (id: string, pinned: boolean) => Promise<void>;
  block: (userId: string) => Promise<void>;
  expanded: Set<string>;
  paging: Record<string, Paging>;
  openMenu: string | null;
  replyTo: string | null;
  editing: string | null;
  toggleMenu: (id: string) => void;
  setReplyTo: (id: string | null) => void;
  setEditing: (id: string | null) => void;
  askDelete: (path: string[]) => void;
  toggleReplies: (path: string[]) => void;
  loadMore: (path: string[]) => Promise<void>;
  add: (path: string[], content: string) => Promise<boolean>;
  saveEdit: (path: string[], previous: string, content: string) => Promise<boolean>;
  react: (path: string[], action: 'like' | 'dislike') => Promise<void>;
  setTakedown: (path: string[], notice: TakedownNoticeData) => void;
}

function CommentItem({ node, path, ctl }: { node: CommentNode; path: string[]; ctl: Ctl }) {
  const c = node.value;
  const id = c._id;
  const isAuthor = ctl.user?.userId === c.owner._id;
  const moderates = Boolean(ctl.channel);
  const held = c.state === 'held';
  const pinnable = moderates && ctl.entityType === 'video' && path.length === 1 && !held;
  const item = 'w-full px-3 py-2 text-left text-sm hover:bg-surface-subtle';
  const open = ctl.expanded.has(id);
  const childPaging = ctl.paging[path.join('/')];
  const menuId = `comment-menu-${id}`;
  const [reporting, setReporting] = useState(false);
  return (
    <li>
      <article className="flex gap-3" aria-label={t('comments.by', { name: c.owner.fullName })}>
        <Link to={paths.channel.videos.getHref(c.owner.userName)} className="shrink-0 self-start rounded-full" aria-label={c.owner.fullName}>
          <Avatar src={c.owner.avatar?.url} fullName={c.owner.fullName} size={36} />
        </Link>
        <div className="min-w-0 flex-1">
          {c.pinned && (
            <p className="mb-1 flex items-center gap-1 text-xs font-medium text-fg-muted">
              <Pin className="size-3" aria-hidden />
              {t('comments.pinnedBy', { name: ctl.pinnedBy ?? '' })}
            </p>
          )}
          <div className="flex items-start gap-2">
            <p className="flex-1 text-xs text-fg-muted">
              <span className="font-semibold text-fg">@{c.owner.userName}</span> · {formatRelative(c.createdAt)}
              {held && <HeldBadge />}
            </p>
            {/* The 32 px menu buttons overhang the 16 px line: one's own comments sit level with others'. */}
            {(isAuthor || moderates) && (
              <div className="relative -my-2">
                <button
                  type="button"
                  aria-label={t('comments.actions')}
                  aria-haspopup="menu"
                  aria-expanded={ctl.openMenu === id}
                  aria-controls={menuId}
                  onClick={() => ctl.toggleMenu(id)}
                  className="flex size-8 items-center justify-center rounded-full hover:bg-surface-subtle"
                >
                  <EllipsisVertical className="size-4" aria-hidden />
                </button>
                {ctl.openMenu === id && (
                  <ul id={menuId} role="menu" className="absolute right-0 z-10 w-52 rounded-lg border border-line bg-surface py-1 shadow-lg">
                    {isAuthor && (
                      <li role="none">
                        <button type="button" role="menuitem" className={item} onClick={() => ctl.setEditing(id)}>
                          {t('comments.edit')}
                        </button>
                      </li>
                    )}
                    {moderates && held && (
                      <li role="none">
                        <button type="button" role="menuitem" className={item} onClick={() => void ctl.approve(path)}>
                          {t('comments.approve')}
                        </button>
                      </li>
                    )}
                    {pinnable && (
                      <li role="none">
                        <button type="button" role="menuitem" className={item} onClick={() => void ctl.pin(id, !c.pinned)}>
                          {c.pinned ? t('comments.unpin') : t('comments.pin')}
                        </button>
                      </li>
                    )}
                    {moderates && !isAuthor && (
                      <li role="none">
                        <button type="button" role="menuitem" className={item} onClick={() => void ctl.block(c.owner._id)}>
                          {t('comments.block')}
                        </button>
                      </li>
                    )}
                    <li role="none">
                      <button type="button" role="menuitem" className="w-full px-3 py-2 text-left text-sm text-danger hover:bg-surface-subtle" onClick={() => ctl.askDelete(path)}>
                        {t('common.delete')}
                      </button>
                    </li>
                    {moderates && !isAuthor && (
                      <li role="none">
                        <button type="button" role="menuitem" className={item} onClick={() => (ctl.toggleMenu(id), setReporting(true))}>
                          {t('comments.report')}
                        </button>
                      </li>
                    )}
                  </ul>
                )}
              </div>
            )}
            {/* Everyone else reports from a menu of its own; the creator's menu above has Report too. */}
            {!isAuthor && !moderates && ctl.user && (
              <div className="-my-2">
                <ReportMenu kind="comment" id={id} label={t('comments.moreActions')} />
              </div>
            )}
            <ReportDialog kind="comment" id={id} open={reporting} onClose={() => setReporting(false)} />
          </div>
          {c.takedown && <TakedownNotice kind="comment" id={id} notice={c.takedown} onAppealed={(n) => ctl.setTakedown(path, n)} />}
          {ctl.editing === id ? (
            <CommentBox label={t('comments.editLabel')} submitLabel={t('common.save')} initial={c.content} autoFocus onSubmit={(content) => ctl.saveEdit(path, c.content, content)} onCancel={() => ctl.setEditing(null)} />
          ) : (
            <p className="whitespace-pre-wrap break-words text-sm">
              <TimestampText text={c.content} links={ctl.timestamps} />
            </p>
          )}
          <div className="mt-1 flex items-center gap-1 text-xs">
            <button type="button" aria-label={reactionLabel('like', c.likes, 'comment')} aria-pressed={c.likeStatus === 1} onClick={() => void ctl.react(path, 'like')} className="flex h-8 items-center gap-1 rounded-full px-2 hover:bg-surface-subtle">
              <ThumbsUp className={clsx('size-4', c.likeStatus === 1 && 'fill-current')} aria-hidden />
              {formatCount(c.likes)}
            </button>
            <button type="button" aria-label={reactionLabel('dislike', c.dislikes, 'comment')} aria-pressed={c.likeStatus === -1} onClick={() => void ctl.react(path, 'dislike')} className="flex h-8 items-center gap-1 rounded-full px-2 hover:bg-surface-subtle">
              <ThumbsDown className={clsx('size-4', c.likeStatus === -1 && 'fill-current')} aria-hidden />
              {formatCount(c.dislikes)}
            </button>
            {ctl.user && !held && (
              <Button variant="ghost" size="sm" onClick={() => ctl.setReplyTo(ctl.replyTo === id ? null : id)}>
                {t('comments.reply')}
              </Button>
            )}
          </div>
          {ctl.replyTo === id && (
            <div className="mt-2">
              <CommentBox label={t('comments.addReply')} submitLabel={t('comments.reply')} autoFocus onSubmit={(content) => ctl.add(path, content)} onCancel={() => ctl.setReplyTo(null)} />
            </div>
          )}
          {c.replies > 0 && (
            <button type="button" aria-expanded={open} onClick={() => ctl.toggleReplies(path)} className="mt-1 flex h-8 items-center gap-1 rounded-full px-2 text-sm font-medium text-link hover:bg-accent-subtle">
              {open ? <ChevronUp className="size-4" aria-hidden /> : <ChevronDown className="size-4" aria-hidden />}
              {plural(c.replies, 'count.replies')}
            </button>
          )}
        </div>
      </article>
      {open && node.children.length + (childPaging?.loading ? 1 : 0) > 0 && (
        <ul className={clsx('mt-3 flex flex-col gap-4', path.length < MAX_INDENT_DEPTH && 'pl-8 xs:pl-12')}>
          {node.children.map((child) => (
            <CommentItem key={child.value._id} node={child} path={[...path, child.value._id]} ctl={ctl} />
          ))}
        </ul>
      )}
      {open && childPaging?.hasMore && !childPaging.loading && (
        <button type="button" onClick={() => void ctl.loadMore(path)} className={clsx('mt-2 rounded text-sm font-medium text-link hover:underline', path.length < MAX_INDENT_DEPTH && 'ml-12 xs:ml-16')}>
          {t('comments.moreReplies')}
        </button>
      )}
    </li>
  );
}
