import { loginBody } from '@glimpse/contract';
import { MailWarning } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { login, useSetMe } from '../api/auth-api.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { ForgotPasswordDialog } from '../components/forgot-password-dialog.tsx';

export default function LoginRoute() {
  const navigate = useNavigate();
  const setMe = useSetMe();
  const [needsVerification, setNeedsVerification] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const { register, handleSubmit, formState, anyEmpty, getValues } = useZodForm(loginBody, { email: '', password: '' });

  const submit = handleSubmit(async (body) => {
    setNeedsVerification(false);
    try {
      const res = await login(body);
      setMe(res.data.user);
      toast.success('Logged in successfully');
      navigate(paths.home.getHref());
    } catch (err) {
      if (isApiError(err, 403)) setNeedsVerification(true);
      else toast.error(errorMessage(err));
    }
  });

  return (
    <AuthCard title="Log in to Glimpse">
      {needsVerification && (
        <div role="alert" className="mb-4 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <MailWarning className="size-5 shrink-0" aria-hidden />
          <p>Your email address is not verified yet. Please open the verification link we sent to your email, then log in again.</p>
        </div>
      )}
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField label="Email" type="email" autoComplete="email" {...register('email')} error={formState.errors.email?.message} />
        <TextField label="Password" type="password" autoComplete="current-password" {...register('password')} error={formState.errors.password?.message} />
        <div className="-mt-2 text-right">
          <button type="button" className="rounded text-sm text-blue-700 hover:underline" onClick={() => setForgotOpen(true)}>
            Forgot password?
          </button>
        </div>
        <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
          Log In
        </Button>
      </form>
      <p className="mt-5 text-center text-sm text-zinc-600">
        Don't have an account?{' '}
        <Link to={paths.register.getHref()} className="rounded font-medium text-blue-700 hover:underline">
          Register
        </Link>
      </p>
      <ForgotPasswordDialog open={forgotOpen} onClose={() => setForgotOpen(false)} initialEmail={forgotOpen ? getValues('email').trim() : ''} />
    </AuthCard>
  );
}
