import { loginBody, messages } from '@glimpse/contract';
import { Clock, MailWarning } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { AuthCard } from '@/components/ui/auth-card.tsx';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { useSetMe } from '@/lib/me.ts';
import { useInstance } from '@/lib/public-config.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { login } from '../api/auth-api.ts';
import { ForgotPasswordDialog } from '../components/forgot-password-dialog.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

export default function LoginRoute() {
  useDocumentTitle(t('auth.logInTitle'));
  const navigate = useNavigate();
  const setMe = useSetMe();
  const { instance } = useInstance();
  // A 403 is either an unverified email (the verification notice) or an account that may not log
  // in yet or now (waiting for approval, suspended): then the server's message says why.
  const [refusal, setRefusal] = useState<{ verify: true } | { verify: false; message: string } | null>(null);
  const [forgotOpen, setForgotOpen] = useState(false);
  const { register, handleSubmit, formState, anyEmpty, getValues } = useZodForm(loginBody, { email: '', password: '' });

  const submit = handleSubmit(async (body) => {
    setRefusal(null);
    try {
      const res = await login(body);
      setMe(res.data.user);
      toast.success(t('auth.loggedIn'));
      navigate(paths.home.getHref());
    } catch (err) {
      if (!isApiError(err, 403)) toast.error(errorMessage(err));
      else if (err.message === messages.accountPendingApproval || err.message.startsWith(messages.accountSuspended)) setRefusal({ verify: false, message: err.message });
      else setRefusal({ verify: true });
    }
  });

  return (
    <AuthCard title={t('auth.logInTo', { name: instance.name })}>
      {refusal && (
        <div role="alert" className="mb-4 flex gap-2 rounded-lg border border-warning-line bg-warning-subtle p-3 text-sm text-warning">
          {refusal.verify ? <MailWarning className="size-5 shrink-0" aria-hidden /> : <Clock className="size-5 shrink-0" aria-hidden />}
          <p>
            {refusal.verify
              ? t('auth.notVerified')
              : refusal.message}
          </p>
        </div>
      )}
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField label={t('auth.email')} type="email" autoComplete="email" {...register('email')} error={formState.errors.email?.message} />
        <TextField label={t('auth.password')} type="password" autoComplete="current-password" {...register('password')} error={formState.errors.password?.message} />
        <div className="-mt-2 text-right">
          <button type="button" className="rounded text-sm text-link hover:underline" onClick={() => setForgotOpen(true)}>
            {t('auth.forgot')}
          </button>
        </div>
        <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
          {t('shell.logIn')}
        </Button>
      </form>
      <p className="mt-5 text-center text-sm text-fg-muted">
        {t('auth.noAccount')}{' '}
        <Link to={paths.register.getHref()} className="rounded font-medium text-link hover:underline">
          {t('auth.register')}
        </Link>
      </p>
      <ForgotPasswordDialog open={forgotOpen} onClose={() => setForgotOpen(false)} initialEmail={forgotOpen ? getValues('email').trim() : ''} />
    </AuthCard>
  );
}
