import { passwordResetBody } from '@glimpse/contract';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { resetPassword } from '../api/auth-api.ts';
import { AuthCard } from '../components/auth-card.tsx';

export default function PasswordResetRoute() {
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const { register, handleSubmit, formState, anyEmpty } = useZodForm(passwordResetBody, { token, newPassword: '', confirmPassword: '' });

  const submit = handleSubmit(async (body) => {
    try {
      await resetPassword(body);
      toast.success('Password reset successfully');
      navigate(paths.login.getHref());
    } catch (err) {
      toast.error(isApiError(err, 401) ? 'Invalid or expired reset password link. Please try with a new link.' : errorMessage(err));
    }
  });

  return (
    <AuthCard title="Reset your password">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <input type="hidden" {...register('token')} />
        <TextField label="New password" type="password" autoComplete="new-password" {...register('newPassword')} error={formState.errors.newPassword?.message} />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          {...register('confirmPassword')}
          error={formState.errors.confirmPassword?.message}
        />
        <div className="flex gap-2">
          <Link to={paths.login.getHref()} className="flex h-10 flex-1 items-center justify-center rounded-full bg-zinc-100 text-sm font-medium hover:bg-zinc-200">
            Login
          </Link>
          <Button type="submit" className="flex-1" dimmed={anyEmpty} loading={formState.isSubmitting}>
            Reset Password
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
