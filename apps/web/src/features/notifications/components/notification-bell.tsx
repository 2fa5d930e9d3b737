import type { Notification } from '@glimpse/contract';
import { Bell, Settings } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FocusEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useLatestNotifications, useMarkAllRead, useMarkRead, useUnreadCount } from '../api/notifications-api.ts';
import { useNotificationStream } from '../api/use-notification-stream.ts';
import { NotificationItem } from './notification-item.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** The badge's text: the count, capped so it stays a badge. */
const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/**
 * The top bar's bell (issue #14): the live unread count as a badge, and a panel with the latest
 * notifications. The panel is a non-modal dialog: Escape closes it and gives focus back to the
 * bell; a click or focus outside closes it too.
 */
export function NotificationBell({ userId, userName }: { userId: string; userName: string }) {
  useNotificationStream(userId);
  const count = useUnreadCount(true).data ?? 0;
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const headingId = useId();

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      bell.current?.focus();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onBlur = (e: FocusEvent) => {
    // Tabbing out of the panel closes it; a click elsewhere has its own handler (relatedTarget is null then).
    if (e.relatedTarget && !root.current?.contains(e.relatedTarget as Node)) setOpen(false);
  };

  const label = count > 0 ? t('notif.bellUnread', { count }) : t('nav.notifications');
  return (
    <div ref={root} className="relative shrink-0" onBlur={onBlur}>
      <button
        ref={bell}
        type="button"
        aria-label={label}
        title={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((v) => !v)}
        className="relative inline-flex size-10 items-center justify-center rounded-full text-fg hover:bg-surface-subtle"
      >
        <Bell className="size-5" aria-hidden />
        {count > 0 && (
          <span aria-hidden className="absolute right-0.5 top-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-danger-solid px-1 text-[11px] font-semibold leading-none text-on-accent ring-2 ring-canvas">
            {badgeText(count)}
          </span>
        )}
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          role="dialog"
          aria-labelledby={headingId}
          tabIndex={-1}
          className="fixed inset-x-2 top-16 z-40 flex max-h-[calc(100vh-5rem)] flex-col overflow-hidden rounded-xl border border-line bg-surface shadow-xl outline-none sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-96"
        >
          <Panel headingId={headingId} count={count} userName={userName} onClose={() => setOpen(false)} />
        </div>
      )}
    </div>
  );
}

function Panel({ headingId, count, userName, onClose }: { headingId: string; count: number; userName: string; onClose: () => void }) {
  const latest = useLatestNotifications(true);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const onOpen = (n: Notification) => {
    if (!n.read) markRead.mutate(n._id);
    onClose();
  };
  const items = latest.data ?? [];
  return (
    <>
      <div className="flex items-center gap-2 border-b border-line px-4 py-2">
        <h2 id={headingId} className="flex-1 text-base font-semibold">
          {t('nav.notifications')}
        </h2>
        {count > 0 && (
          <Button variant="ghost" size="sm" loading={markAll.isPending} onClick={() => markAll.mutate()}>
            {t('notif.markAllRead')}
          </Button>
        )}
        <Link
          to={paths.user.notifications.getHref(userName)}
          onClick={onClose}
          aria-label={t('notif.settings')}
          title={t('notif.settings')}
          className="inline-flex size-8 items-center justify-center rounded-full text-fg-muted hover:bg-surface-subtle"
        >
          <Settings className="size-4" aria-hidden />
        </Link>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {latest.isPending ? (
          <Spinner label={t('notif.loading')} />
        ) : latest.isError ? (
          <p role="alert" className="p-4 text-sm text-danger">
            {errorMessage(latest.error)}
          </p>
        ) : items.length === 0 ? (
          <p className="px-4 py-10 text-center text-sm text-fg-muted">{t('notif.none')}</p>
        ) : (
          <ul aria-label={t('notif.latest')} className="flex flex-col divide-y divide-line">
            {items.map((n) => (
              <li key={n._id}>
                <NotificationItem n={n} onOpen={onOpen} />
              </li>
            ))}
          </ul>
        )}
      </div>
      <Link to={paths.notifications.getHref()} onClick={onClose} className="border-t border-line px-4 py-3 text-center text-sm font-medium text-link hover:bg-accent-subtle">
        {t('notif.seeAll')}
      </Link>
    </>
  );
}
