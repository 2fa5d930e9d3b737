import { notificationMessages, type Notification } from '@glimpse/contract';
import clsx from 'clsx';
import { Check, CheckCheck, Settings } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button, IconButton } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { InfiniteSentinel } from '@/components/ui/infinite-sentinel.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useStoredUser } from '@/lib/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useLoginGuard } from '@/lib/use-login-guard.ts';
import { useMarkAllRead, useMarkRead, useNotificationPages, useUnreadCount } from '../api/notifications-api.ts';
import { NotificationItem } from '../components/notification-item.tsx';
import { t } from '@/lib/i18n/i18n.ts';

const filters = [
  { key: 'notifications.all', unreadOnly: false },
  { key: 'notifications.unread', unreadOnly: true },
] as const;

/** Every notification of the viewer (issue #14): All or Unread, marking read, infinite scroll. */
export default function NotificationsRoute() {
  useDocumentTitle(t('nav.notifications'));
  const [params, setParams] = useSearchParams();
  // In the URL, so back and forward keep the filter.
  const unreadOnly = params.get('filter') === 'unread';
  const user = useStoredUser();
  const q = useNotificationPages(unreadOnly);
  useLoginGuard(q.error, notificationMessages.loginRequired);
  const unread = useUnreadCount(user !== null).data ?? 0;
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  const onOpen = (n: Notification) => {
    if (!n.read) markRead.mutate(n._id);
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 className="flex-1 text-2xl font-bold">{t('nav.notifications')}</h1>
        <div className="flex items-center gap-2">
          <Button variant="secondary" size="sm" disabled={unread === 0} loading={markAll.isPending} onClick={() => markAll.mutate()}>
            <CheckCheck className="size-4" aria-hidden />
            {t('notif.markAllRead')}
          </Button>
          {user && (
            <Link
              to={paths.user.notifications.getHref(user.userName)}
              title={t('notif.settings')}
              className="inline-flex h-8 items-center gap-2 rounded-full px-2 text-sm font-medium text-fg hover:bg-surface-subtle sm:px-3"
            >
              <Settings className="size-4" aria-hidden />
              <span className="sr-only sm:not-sr-only">{t('notif.settings')}</span>
            </Link>
          )}
        </div>
      </div>
      <div role="group" aria-label={t('notifications.show')} className="mb-4 flex gap-2">
        {filters.map((f) => (
          <button
            key={f.key}
            type="button"
            aria-pressed={unreadOnly === f.unreadOnly}
            onClick={() => setParams(f.unreadOnly ? { filter: 'unread' } : {}, { replace: true })}
            className={clsx(
              'h-8 rounded-lg px-3 text-sm font-medium',
              unreadOnly === f.unreadOnly ? 'bg-inverse text-on-inverse' : 'bg-surface-subtle text-fg hover:bg-surface-strong',
            )}
          >
            {t(f.key)}
          </button>
        ))}
      </div>
      {/* A 401 is on its way home with the login toast (useLoginGuard): no error flash meanwhile. */}
      {q.isPending || isApiError(q.error, 401) ? (
        <Spinner label={t('notif.loading')} />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(q.error)}
        </p>
      ) : items.length === 0 ? (
        unreadOnly ? (
          <EmptyState kind="subscriber" title={t('notifications.caughtUp')} text={t('notifications.noUnread')} />
        ) : (
          <EmptyState
            kind="subscriber"
            title={t('notif.none')}
            text={t('notifications.noneText')}
          />
        )
      ) : (
        <ul aria-label={t('nav.notifications')} className="flex flex-col divide-y divide-line overflow-hidden rounded-xl border border-line">
          {items.map((n) => (
            <li key={n._id}>
              <NotificationItem
                n={n}
                onOpen={onOpen}
                actions={
                  !n.read && (
                    <IconButton label={t('notifications.markRead')} onClick={() => markRead.mutate(n._id)} disabled={markRead.isPending && markRead.variables === n._id} className="size-9">
                      <Check className="size-4" aria-hidden />
                    </IconButton>
                  )
                }
              />
            </li>
          ))}
        </ul>
      )}
      <InfiniteSentinel hasMore={q.hasNextPage} loading={q.isFetchingNextPage} onVisible={() => q.fetchNextPage()} />
    </div>
  );
}
