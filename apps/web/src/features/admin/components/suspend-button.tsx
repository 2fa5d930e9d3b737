import type { AdminUser, Role } from '@glimpse/contract';
import { useState } from 'react';
import { ActionDialog, type Ask } from '@/components/moderation/action-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** Who a staff member may suspend (the server's canActAgainst decides): never an admin; moderators only users. */
export const maySuspend = (actor: Role, target: AdminUser) => target.role !== 'admin' && (actor === 'admin' || target.role === 'user');

/** Suspend (with a reason and an optional end) or lift a suspension, from a row of the users list. */
export function SuspendButton({ user }: { user: AdminUser }) {
  const [ask, setAsk] = useState<Ask | null>(null);
  const suspended = user.state === 'suspended' && (!user.suspendedUntil || new Date(user.suspendedUntil) > new Date());
  const open = () =>
    setAsk(
      suspended
        ? { title: t('admin.liftTitle', { user: user.userName }), confirm: t('admin.lift'), reasonRequired: false, build: (reason) => ({ type: 'unsuspend', userId: user._id, reason }) }
        : {
            title: t('admin.suspendTitle', { user: user.userName }),
            confirm: t('admin.suspend'),
            reasonRequired: true,
            withDate: true,
            build: (reason, until) => ({ type: 'suspend', userId: user._id, reason, until }),
          },
    );
  return (
    <>
      <Button variant="secondary" size="sm" onClick={open} aria-label={t(suspended ? 'admin.liftOf' : 'admin.suspendTitle', { user: user.userName })}>
        {suspended ? t('admin.lift') : t('admin.suspend')}
      </Button>
      <ActionDialog ask={ask} onClose={() => setAsk(null)} />
    </>
  );
}
