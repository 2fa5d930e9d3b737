import type { AppContext } from '../../context.ts';
import type { JobHandler } from '../../jobs/worker.ts';
import { AuthService } from './auth.service.ts';

export interface PasswordResetMailPayload {
  email: string;
}

/** Mails the reset link that POST auths/forgot-password-mail queued (AuthService.forgotPassword). */
export function passwordResetMailHandler(ctx: AppContext): JobHandler<PasswordResetMailPayload> {
  const auth = new AuthService(ctx);
  return {
    run: async ({ email }) => ({ mailed: await auth.mailResetLink(email) }),
    // No state to mark: the person asks for a new link; the worker logs why this one failed.
    onFailed: async () => {},
  };
}
