import { messages } from '@glimpse/contract';
import { ApiError } from '../lib/errors.ts';
import type { Mailer, MailMessage } from './mailer.ts';

/** Sends a mail a request depends on: the client learns only that mail is down (503); the operator sees why. */
export async function deliverOr503(mailer: Mailer, message: MailMessage): Promise<void> {
  try {
    await mailer.send(message);
  } catch (err) {
    console.error('Mail delivery failed:', err);
    throw new ApiError(503, messages.mailFailed);
  }
}
