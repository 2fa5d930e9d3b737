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

type FormValues = { curPassword: string; newPassword: string; confirmPassword: string };
const empty: FormValues = { curPassword: '', newPassword: '', confirmPassword: '' };

export default function ChangePasswordRoute() {
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
      toast.success(message || 'Password updated successfully');
      reset(empty);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <SettingsHeader userName={user.userName} />
      <section aria-labelledby="change-password" className="mx-auto max-w-md py-6">
        <h2 id="change-password" className="mb-4 text-lg font-semibold">
          Change password
        </h2>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-xl border border-zinc-200 p-4">
          <TextField label="Current password" type="password" autoComplete="current-password" {...register('curPassword')} error={formState.errors.curPassword?.message} />
          <TextField label="New password" type="password" autoComplete="new-password" {...register('newPassword')} error={formState.errors.newPassword?.message} />
          <TextField label="Confirm password" type="password" autoComplete="new-password" {...register('confirmPassword')} error={formState.errors.confirmPassword?.message} />
          <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
            Update password
          </Button>
        </form>
      </section>
    </div>
  );
}
