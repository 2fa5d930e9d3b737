import clsx from 'clsx';
import { ChevronDown, ChevronUp, EllipsisVertical, ThumbsDown, ThumbsUp } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatCount, formatRelative, plural } from '@/lib/format.ts';
import { useStoredUser, type StoredUser } from '@/lib/session.ts';
import type { Comment } from '@/types/api.ts';
import { deleteCommentCall, editComment, fetchComments, postComment, reactToComment, type CommentEntityType } from '../api/comments-api.ts';
import { addComments, createRoot, deleteComment, updateComment, type CommentNode } from '../comment-tree.ts';
import { CommentBox } from './comment-box.tsx';

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
}

/** Threaded comments of a video or tweet: box, 10 per page, replies, edit/delete, likes. */
export function CommentSection(props: CommentSectionProps) {
  return <Section key={`${props.entityType}:${props.entityId}`} {...props} />;
}

function Section({ entityType, entityId, count = 0, onCountChange }: CommentSectionProps) {
  const user = useStoredUser();
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
      toast.error('Please login to comment');
      return false;
    }
    try {
      const parentId = path.at(-1) ?? null;
      const created = await postComment(entityType, entityId, parentId, content);
      const comment: Comment = {
        content,
        entityType,
        entityId,
        parentId,
        replies: 0,
        likes: 0,
        dislikes: 0,
        likeStatus: 0,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        ...created,
        owner: created.owner ?? { _id: user.userId, userName: user.userName, fullName: user.fullName, avatar: user.avatar },
      };
      setTree((t) => {
        let next = addComments(t, path, [comment], 'start');
        if (path.length > 0) {
          const parent = findValue(t, path);
          if (parent) next = updateComment(next, path, { replies: parent.replies + 1 });
        }
        return next;
      });
      if (parentId) {
        setExpanded((s) => new Set(s).add(parentId));
        setReplyTo(null);
      }
      changeTotal(1);
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
      await editComment(path.at(-1)!, content);
      setTree((t) => updateComment(t, path, { content, updatedAt: new Date().toISOString() }));
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
      toast.success('Comment deleted successfully');
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setDeleting(null);
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
  };

  return (
    <section aria-labelledby="comments-title" className="mt-6">
      <h2 id="comments-title" className="mb-4 text-lg font-semibold">
        {formatCount(total)} Comments
      </h2>
      {user ? (
        <div className="mb-6 flex gap-3">
          <Avatar src={user.avatar?.url} fullName={user.fullName} size={40} />
          <div className="flex-1">
            <CommentBox label="Add a comment" submitLabel="Comment" onSubmit={(content) => add([], content)} />
          </div>
        </div>
      ) : (
        <p className="mb-6 text-sm text-zinc-600">
          <Link to={paths.login.getHref()} className="rounded font-medium text-blue-700 hover:underline">
            Log in
          </Link>{' '}
          to add a comment.
        </p>
      )}
      {tree.children.length === 0 && !top.loading && !top.hasMore ? (
        <EmptyState kind="comment" title="No comments" text="Be the first to add a comment." />
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
        title="Delete comment"
        text="Delete this comment and its replies permanently?"
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
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
}

function CommentItem({ node, path, ctl }: { node: CommentNode; path: string[]; ctl: Ctl }) {
  const c = node.value;
  const id = c._id;
  const isAuthor = ctl.user?.userId === c.owner._id;
  const open = ctl.expanded.has(id);
  const childPaging = ctl.paging[path.join('/')];
  const menuId = `comment-menu-${id}`;
  return (
    <li>
      <article className="flex gap-3" aria-label={`Comment by ${c.owner.fullName}`}>
        <Link to={paths.channel.videos.getHref(c.owner.userName)} className="shrink-0 self-start rounded-full" aria-label={c.owner.fullName}>
          <Avatar src={c.owner.avatar?.url} fullName={c.owner.fullName} size={36} />
        </Link>
        <div className="min-w-0 flex-1">
          <div className="flex items-start gap-2">
            <p className="flex-1 text-xs text-zinc-600">
              <span className="font-semibold text-zinc-900">@{c.owner.userName}</span> · {formatRelative(c.createdAt)}
            </p>
            {isAuthor && (
              <div className="relative">
                <button
                  type="button"
                  aria-label="Comment actions"
                  aria-haspopup="menu"
                  aria-expanded={ctl.openMenu === id}
                  aria-controls={menuId}
                  onClick={() => ctl.toggleMenu(id)}
                  className="flex size-8 items-center justify-center rounded-full hover:bg-zinc-100"
                >
                  <EllipsisVertical className="size-4" aria-hidden />
                </button>
                {ctl.openMenu === id && (
                  <ul id={menuId} role="menu" className="absolute right-0 z-10 w-32 rounded-lg border border-zinc-200 bg-white py-1 shadow-lg">
                    <li role="none">
                      <button type="button" role="menuitem" className="w-full px-3 py-2 text-left text-sm hover:bg-zinc-100" onClick={() => ctl.setEditing(id)}>
                        Edit
                      </button>
                    </li>
                    <li role="none">
                      <button type="button" role="menuitem" className="w-full px-3 py-2 text-left text-sm text-red-700 hover:bg-zinc-100" onClick={() => ctl.askDelete(path)}>
                        Delete
                      </button>
                    </li>
                  </ul>
                )}
              </div>
            )}
          </div>
          {ctl.editing === id ? (
            <CommentBox label="Edit comment" submitLabel="Save" initial={c.content} autoFocus onSubmit={(content) => ctl.saveEdit(path, c.content, content)} onCancel={() => ctl.setEditing(null)} />
          ) : (
            <p className="whitespace-pre-wrap break-words text-sm">{c.content}</p>
          )}
          <div className="mt-1 flex items-center gap-1 text-xs">
            <button type="button" aria-label="Like comment" aria-pressed={c.likeStatus === 1} onClick={() => void ctl.react(path, 'like')} className="flex h-8 items-center gap-1 rounded-full px-2 hover:bg-zinc-100">
              <ThumbsUp className={clsx('size-4', c.likeStatus === 1 && 'fill-current')} aria-hidden />
              {formatCount(c.likes)}
            </button>
            <button type="button" aria-label="Dislike comment" aria-pressed={c.likeStatus === -1} onClick={() => void ctl.react(path, 'dislike')} className="flex h-8 items-center gap-1 rounded-full px-2 hover:bg-zinc-100">
              <ThumbsDown className={clsx('size-4', c.likeStatus === -1 && 'fill-current')} aria-hidden />
              {formatCount(c.dislikes)}
            </button>
            {ctl.user && (
              <Button variant="ghost" size="sm" onClick={() => ctl.setReplyTo(ctl.replyTo === id ? null : id)}>
                Reply
              </Button>
            )}
          </div>
          {ctl.replyTo === id && (
            <div className="mt-2">
              <CommentBox label="Add a reply" submitLabel="Reply" autoFocus onSubmit={(content) => ctl.add(path, content)} onCancel={() => ctl.setReplyTo(null)} />
            </div>
          )}
          {c.replies > 0 && (
            <button type="button" aria-expanded={open} onClick={() => ctl.toggleReplies(path)} className="mt-1 flex h-8 items-center gap-1 rounded-full px-2 text-sm font-medium text-blue-700 hover:bg-blue-50">
              {open ? <ChevronUp className="size-4" aria-hidden /> : <ChevronDown className="size-4" aria-hidden />}
              {plural(c.replies, 'reply', 'replies')}
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
        <button type="button" onClick={() => void ctl.loadMore(path)} className={clsx('mt-2 rounded text-sm font-medium text-blue-700 hover:underline', path.length < MAX_INDENT_DEPTH && 'ml-12 xs:ml-16')}>
          Show more replies
        </button>
      )}
    </li>
  );
}
