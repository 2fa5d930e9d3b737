import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Globe } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ReportDialog } from '@/components/moderation/report-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { TextArea } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { blockRemote, commentOnRemote, federatedThreadOptions, htmlToText, remoteBlocksOptions, replyToFederated, type FederatedComment } from '@/lib/federation.ts';
import { formatRelative } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useStoredUser } from '@/lib/session.ts';

/**
 * Comments across servers under a video (issue #35): on one of ours, those that came from other
 * servers (with replies going back); on a remote video, the whole thread we know, and a form to
 * comment (sent to its server). Hidden on our videos while there are none. A logged-in user reports a
 * remote account's comment to its server; on our video, its owner (`ownerId`) blocks the account.
 */
export function FederatedThread({ videoId, remote = false, ownerId }: { videoId: string; remote?: boolean; ownerId?: string }) {
  const user = useStoredUser();
  const qc = useQueryClient();
  const q = useQuery(federatedThreadOptions(videoId));
  const refresh = () => qc.invalidateQueries({ queryKey: federatedThreadOptions(videoId).queryKey });
  const comments = q.data ?? [];
  if (!remote && comments.length === 0) return null;
  return (
    <section aria-labelledby={`fed-${videoId}`} className="mt-6">
      <h2 id={`fed-${videoId}`} className="mb-3 flex items-center gap-2 font-semibold">
        <Globe className="size-4" aria-hidden />
        {remote ? t('federation.comments') : t('federation.commentsFromOtherServers')}
      </h2>
      {remote && user && <CommentForm label={t('federation.addComment')} send={(text) => commentOnRemote(videoId, text)} onSent={refresh} />}
      {comments.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('federation.noComments')}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {comments.map((c) => (
            <Comment key={c._id} comment={c} canReply={!!user} canBlock={!remote && !!user && user.userId === ownerId} onSent={refresh} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Comment({ comment, canReply, canBlock, onSent }: { comment: FederatedComment; canReply: boolean; canBlock: boolean; onSent: () => void }) {
  const [replying, setReplying] = useState(false);
  const [reporting, setReporting] = useState(false);
  const qc = useQueryClient();
  // Only a remote account's comment goes to another server's moderators, or can be blocked by a channel.
  const fromElsewhere = comment.author.host !== null;
  const block = useMutation({
    mutationFn: () => blockRemote(comment.author.handle),
    onSuccess: (b) => {
      toast.success(t('federation.blocked', { handle: b.handle }));
      void qc.invalidateQueries({ queryKey: remoteBlocksOptions().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const action = 'mt-1 text-xs font-medium text-link hover:underline';
  return (
    <li className="text-sm">
      <p className="text-xs text-fg-muted">
        <span className="font-medium text-fg">{comment.author.name}</span> {comment.author.handle} · {formatRelative(comment.publishedAt)}
        {comment.held && <span className="ml-2 rounded bg-surface-subtle px-1.5 py-0.5">{t('federation.held')}</span>}
      </p>
      <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">{htmlToText(comment.content)}</p>
      <div className="flex flex-wrap gap-x-4">
        {canReply && !comment.held && (
          <button type="button" className={action} aria-expanded={replying} onClick={() => setReplying((v) => !v)}>
            {t('federation.reply')}
          </button>
        )}
        {canReply && fromElsewhere && (
          <button type="button" className={action} aria-haspopup="dialog" onClick={() => setReporting(true)}>
            {t('comments.report')}
          </button>
        )}
        {canBlock && fromElsewhere && (
          <button type="button" className={action} disabled={block.isPending} onClick={() => block.mutate()}>
            {t('federation.blockAuthor', { handle: comment.author.handle })}
          </button>
        )}
      </div>
      {reporting && <ReportDialog kind="comment" id={comment._id} open onClose={() => setReporting(false)} remote />}
      {replying && (
        <CommentForm
          label={t('federation.replyTo', { name: comment.author.name })}
          send={(text) => replyToFederated(comment._id, text)}
          onSent={() => {
            setReplying(false);
            onSent();
          }}
        />
      )}
    </li>
  );
}

function CommentForm({ label, send, onSent }: { label: string; send: (text: string) => Promise<unknown>; onSent: () => void }) {
  const [text, setText] = useState('');
  const post = useMutation({
    mutationFn: () => send(text),
    onSuccess: () => {
      setText('');
      onSent();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) post.mutate();
  };
  return (
    <form onSubmit={submit} className="my-3 flex flex-col gap-2">
      <TextArea label={label} value={text} maxLength={5000} onChange={(e) => setText(e.target.value)} error={post.isError ? errorMessage(post.error) : undefined} />
      <Button type="submit" size="sm" className="self-end" loading={post.isPending} disabled={!text.trim()}>
        {t('federation.send')}
      </Button>
    </form>
  );
}
