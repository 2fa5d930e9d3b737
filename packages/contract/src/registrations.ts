import { z } from 'zod';
import { id, paged } from './common.ts';

/** What a visitor may tell the moderators when registering in approval mode (optional). */
export const REGISTRATION_REASON_MAX = 1000;
/** What a moderator tells the person whose registration is rejected (mailed to them). */
export const REJECTION_REASON_MAX = 1000;

export const registrationMessages = {
  closed: 'Registration is closed on this instance.',
  domainRefused: 'Accounts with this email domain cannot register on this instance.',
  /** The register answer in approval mode (the spec's `registered` message, plus the review). */
  pendingApproval:
    'An email has been sent to your email address. Please verify your email address. A moderator will review your account before you can log in.',
  listed: 'Registrations fetched successfully',
  approved: 'Registration approved',
  rejected: 'Registration rejected',
  notFound: 'No registration is waiting for approval with this id',
  reasonRequired: 'Please enter a reason',
} as const;

export const registrationParams = z.object({ userId: id });

export const rejectRegistrationBody = z.object({
  reason: z
    .string()
    .trim()
    .min(1, registrationMessages.reasonRequired)
    .max(REJECTION_REASON_MAX, `The reason must be at most ${REJECTION_REASON_MAX} characters`),
});
export type RejectRegistrationBody = z.infer<typeof rejectRegistrationBody>;

/** An account waiting for a moderator (registration in approval mode). */
export const pendingRegistration = z.object({
  _id: z.string(),
  fullName: z.string(),
  userName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
  /** What the person wrote when registering, or null. */
  reason: z.string().nullable(),
});
export type PendingRegistration = z.infer<typeof pendingRegistration>;

export const registrationsPage = paged(pendingRegistration);
export type RegistrationsPage = z.infer<typeof registrationsPage>;
