import { registrationMessages, type InstanceSettings } from '@glimpse/contract';
import { ApiError } from '../../lib/errors.ts';

type SignupSettings = Pick<InstanceSettings, 'registrationMode' | 'signupAllowedDomains' | 'signupBlockedDomains'>;

/** Whether `domain` is `listed` itself or one of its subdomains (both lower case). */
const within = (domain: string, listed: string) => domain === listed || domain.endsWith(`.${listed}`);

/**
 * Why this email may not create an account here (a 403), or null when it may: registration closed,
 * or the email's domain outside the allowed list (when there is one) or inside the blocked list.
 * Domains compare case-insensitively and cover their subdomains.
 */
export function signupRefusal(settings: SignupSettings, email: string): ApiError | null {
  if (settings.registrationMode === 'closed') return new ApiError(403, registrationMessages.closed);
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const allowed = settings.signupAllowedDomains;
  const refused =
    (allowed.length > 0 && !allowed.some((d) => within(domain, d.toLowerCase()))) ||
    settings.signupBlockedDomains.some((d) => within(domain, d.toLowerCase()));
  return refused ? new ApiError(403, registrationMessages.domainRefused) : null;
}
