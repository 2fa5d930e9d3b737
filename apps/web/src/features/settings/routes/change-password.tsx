import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordBody } from '@glimpse/contract';
import { useForm, useWatch } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { changePassword } from '../api/settings-api.ts';
import { SettingsHeader } from '../components/settings-header.tsx';
import { useOwnUser } from '../components/use-own-user.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

type FormValues = { curPassword: string; newPassword: string; confirmPassword: string };
const empty: FormValues = { curPassword: '', newPassword: '', confirmPassword: '' };

export default function ChangePasswordRoute() {
  useDocumentTitle(t('settings.changePassword'));
  const user = useOwnUser();
  const { register, handleSubmit, reset, formState, control } = useForm<FormValues>({
    resolver: zodResolver(changePasswordBody),
    mode: 'onTouched',
    defaultValues: empty,
  });
  const values = useWatch({ control });
  // Spec §5: the submit looks dimmed while any field is empty.
  const anyEmpty = Object.values(values).some((v) => !v);

  const submit = handleSubmit(async (body) => {
    try {
      const { message } = await changePassword({ email: user.email, ...body });
      toast.success(message || t('settings.passwordUpdated'));
      reset(empty);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <SettingsHeader userName={user.userName} />
      <section aria-labelledby="change-password" className="max-w-md py-6">
        <h2 id="change-password" className="mb-4 text-lg font-semibold">
          {t('settings.changePassword')}
        </h2>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-xl border border-line p-4">
          <TextField label={t('settings.currentPassword')} type="password" autoComplete="current-password" {...register('curPassword')} error={formState.errors.curPassword?.message} />
          <TextField label={t('settings.newPassword')} type="password" autoComplete="new-password" {...register('newPassword')} error={formState.errors.newPassword?.message} />
          <TextField label={t('settings.confirmPassword')} type="password" autoComplete="new-password" {...register('confirmPassword')} error={formState.errors.confirmPassword?.message} />
          <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
            {t('settings.updatePassword')}
          </Button>
        </form>
      </section>
    </div>
  );
}
