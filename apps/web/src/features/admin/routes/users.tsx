import { accountStates, roles, type AccountState, type AdminUser, type Role } from '@glimpse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { useStoredUser } from '@/lib/session.ts';
import { usersQueryOptions, useSetRole } from '../api/admin-api.ts';
import { DeleteAccountButton } from '../components/delete-account-button.tsx';
import { maySuspend, SuspendButton } from '../components/suspend-button.tsx';
import { useAdminContext } from './admin.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import type { MessageKey } from '@/lib/i18n/en.ts';
import { t } from '@/lib/i18n/i18n.ts';

const stateLabels: Record<AccountState, MessageKey> = { active: 'admin.stateActive', pending_approval: 'admin.statePending', suspended: 'admin.stateSuspended' };

function RoleCell({ user, editable }: { user: AdminUser; editable: boolean }) {
  const setRole = useSetRole();
  if (!editable) return <span>{t('admin.roleName', { role: user.role })}</span>;
  return (
    <select
      aria-label={t('admin.roleOf', { user: user.userName })}
      className="h-9 rounded-lg border border-line-strong bg-surface px-2 text-sm"
      value={user.role}
      disabled={setRole.isPending}
      onChange={(e) =>
        setRole.mutate(
          { userId: user._id, role: e.target.value as Role },
          { onSuccess: (res) => toast.success(res.message), onError: (err) => toast.error(errorMessage(err)) },
        )
      }
    >
      {roles.map((r) => (
        <option key={r} value={r}>
          {t('admin.roleName', { role: r })}
        </option>
      ))}
    </select>
  );
}

/** Every account, searchable; admins change roles here (staff rights are checked by the server). */
export default function AdminUsers() {
  useDocumentTitle(t('admin.users'));
  const { role } = useAdminContext();
  const me = useStoredUser();
  const [draft, setDraft] = useState('');
  const [filter, setFilter] = useState<{ q?: string; state?: AccountState }>({});
  const users = useInfiniteQuery(usersQueryOptions(filter));
  const list = users.data?.pages.flatMap((p) => p.users) ?? [];

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setFilter((f) => ({ ...f, q: draft.trim() || undefined }));
  };

  return (
    <section aria-label={t('admin.users')} className="flex flex-col gap-4">
      {/* Named: the top bar's search is a search landmark too. */}
      <form role="search" aria-label={t('admin.searchUsers')} onSubmit={onSearch} className="flex flex-wrap items-end gap-2">
        {/* At least 16rem: on a phone the box takes its own line, the state and the button share the next. */}
        <label className="flex min-w-0 flex-[2_1_16rem] flex-col gap-1 text-sm font-medium text-fg-muted">
          {t('admin.searchUsers')}
          <input
            type="search"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder={t('admin.searchPlaceholder')}
            className="h-10 rounded-lg border border-line-strong bg-surface px-3 text-sm font-normal"
          />
        </label>
        <label className="flex min-w-0 flex-[1_1_10rem] flex-col gap-1 text-sm font-medium text-fg-muted">
          {t('admin.state')}
          <select
            value={filter.state ?? ''}
            onChange={(e) => setFilter((f) => ({ ...f, state: (e.target.value || undefined) as AccountState | undefined }))}
            className="h-10 rounded-lg border border-line-strong bg-surface px-2 text-sm font-normal"
          >
            <option value="">{t('admin.any')}</option>
            {accountStates.map((s) => (
              <option key={s} value={s}>
                {t(stateLabels[s])}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit">{t('admin.search')}</Button>
      </form>

      {users.isPending ? (
        <Spinner label={t('admin.loadingUsers')} />
      ) : users.isError ? (
        <EmptyState kind="moderation" title={t('admin.usersFailed')} text={errorMessage(users.error)} />
      ) : list.length === 0 ? (
        <EmptyState kind="moderation" title={t('admin.noUsers')} text={t('admin.noUsersText')} />
      ) : (
        <ul aria-label={t('admin.accounts')} className="divide-y divide-line rounded-xl border border-line">
          {list.map((u) => (
            <li key={u._id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3">
              {/* The account first, whole (long names and addresses wrap); the controls beside it where there is room, else below. */}
              <div className="min-w-0 flex-[1_1_16rem] [overflow-wrap:anywhere]">
                <Link to={paths.channel.videos.getHref(u.userName)} className="font-medium hover:underline">
                  {u.fullName}
                </Link>{' '}
                <span className="text-sm text-fg-muted">@{u.userName}</span>
                <p className="text-sm text-fg-muted">
                  {u.email}
                  {!u.emailVerified && t('admin.notVerified')}
                  {t('admin.userMeta', { date: formatDate(u.createdAt), count: u.videos })}
                </p>
                {u.state !== 'active' && (
                  <p className="text-sm text-warning">
                    {t(stateLabels[u.state])}
                    {u.suspendedUntil && t('admin.until', { date: formatDate(u.suspendedUntil) })}
                    {u.stateReason && t('admin.stateReason', { reason: u.stateReason })}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <RoleCell user={u} editable={role === 'admin' && u._id !== me?.userId} />
                {u._id !== me?.userId && maySuspend(role, u) && <SuspendButton user={u} />}
                {role === 'admin' && u._id !== me?.userId && <DeleteAccountButton user={u} />}
              </div>
            </li>
          ))}
        </ul>
      )}
      {users.hasNextPage && (
        <Button variant="secondary" className="self-center" loading={users.isFetchingNextPage} onClick={() => void users.fetchNextPage()}>
          {t('common.showMore')}
        </Button>
      )}
    </section>
  );
}
