import type { Notification } from '@glimpse/contract';
import { notificationPath, notificationText } from '@glimpse/contract/notification-text';
import clsx from 'clsx';
import { Bell, CircleAlert, CircleCheck, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar.tsx';
import { formatRelative } from '@/lib/format.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The actor's face, or an icon for what the system or a moderator says. */
function Visual({ n }: { n: Notification }) {
  if (n.actor) return <Avatar src={n.actor.avatar?.url} fullName={n.actor.fullName} size={36} />;
  const [Icon, tone] =
    n.type === 'moderation'
      ? [ShieldCheck, 'bg-warning-subtle text-warning']
      : n.type === 'videoProcessed' && n.subject.outcome === 'failed'
        ? [CircleAlert, 'bg-danger-subtle text-danger']
        : n.type === 'videoProcessed'
          ? [CircleCheck, 'bg-success-subtle text-success']
          : [Bell, 'bg-accent-muted text-link'];
  return (
    <span className={clsx('flex size-9 shrink-0 items-center justify-center rounded-full', tone)}>
      <Icon className="size-5" />
    </span>
  );
}

/**
 * One notification, in the bell's panel and on the page: a link to what it is about that marks it
 * read on the way (`onOpen`), with room for the page's own buttons (`actions`).
 */
export function NotificationItem({ n, onOpen, actions }: { n: Notification; onOpen: (n: Notification) => void; actions?: ReactNode }) {
  return (
    <div className={clsx('flex items-center gap-1 px-2 py-1', !n.read && 'bg-accent-subtle')}>
      <Link to={notificationPath(n)} onClick={() => onOpen(n)} className="flex min-w-0 flex-1 items-start gap-3 rounded-lg p-2 hover:bg-surface-subtle">
        {/* Hidden from the link's name: the text names the actor already. */}
        <span aria-hidden>
          <Visual n={n} />
        </span>
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className={clsx('line-clamp-3 break-words text-sm', n.read ? 'text-fg' : 'font-semibold text-fg')}>
            {!n.read && <span className="sr-only">{t('notif.unreadPrefix')}</span>}
            {notificationText(n)}
          </span>
          <time dateTime={n.createdAt} className="text-xs text-fg-muted">
            {formatRelative(n.createdAt)}
          </time>
        </span>
        {!n.read && <span className="mt-1.5 size-2.5 shrink-0 rounded-full bg-accent" aria-hidden />}
      </Link>
      {actions}
    </div>
  );
}
