import { registerBody } from '@glimpse/contract';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useZodForm } from '@/lib/use-zod-form.ts';
import { register as registerAccount } from '../api/auth-api.ts';
import { AuthCard } from '../components/auth-card.tsx';

export default function RegisterRoute() {
  const navigate = useNavigate();
  const { register, handleSubmit, formState, anyEmpty } = useZodForm(registerBody, { fullName: '', email: '', password: '' });

  const submit = handleSubmit(async (body) => {
    try {
      await registerAccount(body);
      toast.success('An email has been sent to your email address. Please verify your email address.');
      navigate(paths.login.getHref());
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });

  return (
    <AuthCard title="Create your account">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField label="Name" autoComplete="name" {...register('fullName')} error={formState.errors.fullName?.message} />
        <TextField label="Email" type="email" autoComplete="email" {...register('email')} error={formState.errors.email?.message} />
        <TextField label="Password" type="password" autoComplete="new-password" {...register('password')} error={formState.errors.password?.message} />
        <Button type="submit" dimmed={anyEmpty} loading={formState.isSubmitting}>
          Register
        </Button>
      </form>
      <p className="mt-5 text-center text-sm text-zinc-600">
        Already have an account?{' '}
        <Link to={paths.login.getHref()} className="rounded font-medium text-blue-700 hover:underline">
          Log In
        </Link>
      </p>
    </AuthCard>
  );
}
