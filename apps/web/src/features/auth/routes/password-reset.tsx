import { passwordResetBody } from '@glimpse/contract';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/ui/auth-card.tsx';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { resetPassword } from '../api/auth-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function PasswordResetRoute() {
  useDocumentTitle(t('auth.resetTitle'));
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const { register, handleSubmit, formState, anyEmpty } = useZodForm(passwordResetBody, { token, newPassword: '', confirmPassword: '' });

  const submit = handleSubmit(async (body) => {
    try {
      await resetPassword(body);
      toast.success(t('auth.resetOk'));
      navigate(paths.login.getHref());
    } catch (err) {
      toast.error(isApiError(err, 401) ? t('auth.resetBadLink') : errorMessage(err));
    }
  });

  return (
    <AuthCard title={t('auth.resetYour')}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <input type="hidden" {...register('token')} />
        <TextField label={t('auth.newPassword')} type="password" autoComplete="new-password" {...register('newPassword')} error={formState.errors.newPassword?.message} />
        <TextField
          label={t('auth.confirmPassword')}
          type="password"
          autoComplete="new-password"
          {...register('confirmPassword')}
          error={formState.errors.confirmPassword?.message}
        />
        <div className="flex gap-2">
          <Link to={paths.login.getHref()} className="flex h-10 flex-1 items-center justify-center rounded-full bg-surface-subtle text-sm font-medium hover:bg-surface-strong">
            {t('auth.login')}
          </Link>
          <Button type="submit" className="flex-1" dimmed={anyEmpty} loading={formState.isSubmitting}>
            {t('auth.resetButton')}
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
