import { forgotPasswordBody } from '@glimpse/contract';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Dialog } from '@/components/ui/dialog.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { sendForgotPasswordMail } from '../api/auth-api.ts';
import { t } from '@/lib/i18n/i18n.ts';

export function ForgotPasswordDialog({ open, onClose, initialEmail }: { open: boolean; onClose: () => void; initialEmail: string }) {
  const { register, handleSubmit, formState, anyEmpty, reset } = useZodForm(forgotPasswordBody, { email: initialEmail });
  const submit = handleSubmit(async ({ email }) => {
    try {
      await sendForgotPasswordMail(email);
      toast.success('A reset password link has been sent to your given email ID. Please reset the password from there.');
      reset();
      onClose();
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });
  return (
    <Dialog open={open} onClose={onClose} title={t('auth.forgotTitle')}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <p className="text-sm text-fg-muted">{t('auth.forgotText')}</p>
        <TextField label={t('auth.email')} type="email" autoComplete="email" {...register('email')} error={formState.errors.email?.message} />
        <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
          {t('auth.sendLink')}
        </Button>
      </form>
    </Dialog>
  );
}
