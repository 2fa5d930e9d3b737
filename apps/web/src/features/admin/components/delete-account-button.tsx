import type { AdminUser } from '@glimpse/contract';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/dialog.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useDeleteAccount } from '../api/admin-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** An admin's Delete account on a row of the users list, after a confirmation naming the account. */
export function DeleteAccountButton({ user }: { user: AdminUser }) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteAccount();
  const confirm = () =>
    remove.mutate(user._id, {
      onSuccess: (res) => toast.success(res.message),
      onError: (err) => toast.error(errorMessage(err)),
      onSettled: () => setAsking(false),
    });
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setAsking(true)} aria-label={t('admin.deleteAccountOf', { user: user.userName })}>
        {t('admin.deleteAccount')}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t('admin.deleteAccount')}
        text={t('admin.deleteAccountText', { user: user.userName, email: user.email })}
        confirmLabel={t('admin.deleteAccount')}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
        busy={remove.isPending}
      />
    </>
  );
}
