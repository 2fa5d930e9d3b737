import { REGISTRATION_REASON_MAX, registerBody, registrationMessages } from '@glimpse/contract';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { AuthCard } from '@/components/ui/auth-card.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextArea, TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useInstance } from '@/lib/public-config.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { register as registerAccount } from '../api/auth-api.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

const linkClass = 'rounded font-medium text-link hover:underline';

function LoginLine() {
  return (
    <p className="mt-5 text-center text-sm text-fg-muted">
      {t('auth.haveAccount')}{' '}
      <Link to={paths.login.getHref()} className={linkClass}>
        {t('shell.logIn')}
      </Link>
    </p>
  );
}

/** A notice in place of the form (registration closed, or the account waiting for review). */
function Notice({ title, text }: { title: string; text: string }) {
  return (
    <AuthCard title={title}>
      <p role="status" className="rounded-lg bg-accent-subtle p-3 text-sm text-link">
        {text}
      </p>
      <p className="mt-3 text-center text-sm">
        <Link to={paths.about.getHref()} className={linkClass}>
          {t('auth.aboutInstance')}
        </Link>
      </p>
      <LoginLine />
    </AuthCard>
  );
}

/**
 * Spec §2's register page. The instance's registration mode (GET config) decides: `closed` shows a
 * notice instead of the form; `approval` says new accounts are reviewed, asks an optional note for
 * the moderators, and ends on the pending notice instead of going to login.
 */
export default function RegisterRoute() {
  useDocumentTitle(t('auth.register'));
  const navigate = useNavigate();
  const { instance, isPending } = useInstance();
  const [reason, setReason] = useState('');
  const [pendingMessage, setPendingMessage] = useState<string | null>(null);
  const { register, handleSubmit, formState, anyEmpty } = useZodForm(registerBody, { fullName: '', email: '', password: '' });
  const approval = instance.registrationMode === 'approval';

  const submit = handleSubmit(async (body) => {
    try {
      const note = reason.trim();
      const res = await registerAccount(approval && note ? { ...body, reason: note } : body);
      if (approval) {
        setPendingMessage(res.message || registrationMessages.pendingApproval);
        return;
      }
      toast.success(t('auth.emailSent'));
      navigate(paths.login.getHref());
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });

  if (isPending) {
    return (
      <AuthCard title={t('auth.createAccount')}>
        <Spinner />
      </AuthCard>
    );
  }
  if (instance.registrationMode === 'closed') return <Notice title={t('auth.closed')} text={registrationMessages.closed} />;
  if (pendingMessage) return <Notice title={t('auth.willBeReviewed')} text={pendingMessage} />;

  return (
    <AuthCard title={t('auth.createAccount')}>
      {approval && <p className="mb-4 rounded-lg bg-accent-subtle p-3 text-sm text-link">{t('auth.approvalNotice')}</p>}
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField label={t('auth.name')} autoComplete="name" {...register('fullName')} error={formState.errors.fullName?.message} />
        <TextField label={t('auth.email')} type="email" autoComplete="email" {...register('email')} error={formState.errors.email?.message} />
        <TextField label={t('auth.password')} type="password" autoComplete="new-password" {...register('password')} error={formState.errors.password?.message} />
        {approval && (
          <TextArea label={t('auth.why')} value={reason} maxLength={REGISTRATION_REASON_MAX} onChange={(e) => setReason(e.target.value)} />
        )}
        <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
          {t('auth.register')}
        </Button>
      </form>
      <LoginLine />
    </AuthCard>
  );
}
