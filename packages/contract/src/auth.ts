import { z } from 'zod';
import { roles } from './roles.ts';
import { imageRef } from './common.ts';
import { REGISTRATION_REASON_MAX } from './registrations.ts';
import { oneLine } from './text.ts';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 60;
export const USERNAME_MAX = 30;

export const messages = {
  accountPendingApproval: 'Your account is waiting for approval by the moderators.',
  accountSuspended: 'Your account is suspended',
  /** An access token whose session was ended (logout, password change or reset): not 'jwt expired', so a spec client logs in again. */
  sessionEnded: 'Your session has ended. Please log in again.',
  nameRequired: 'Please enter your name',
  emailInvalid: 'Invalid email address',
  emailRequired: 'Please enter your email',
  passwordRequired: 'Please enter your password',
  forgotEmailRequired: 'Email is required to send reset password link.',
  curPasswordRequired: 'Please enter your current password',
  newPasswordRequired: 'Please enter your new password',
  newPasswordMin: 'New password must of be at least 6 characters',
  passwordsMustMatch: 'Passwords must match',
  fullNameRequired: 'Please enter your full name',
  userNameRequired: 'Please enter your username',
  jwtExpired: 'jwt expired',
  userNameTaken: 'User name already exists',
  registered: 'An email has been sent to your email address. Please verify your email address.',
  emailTaken: 'User with this email already exists',
  loggedIn: 'Logged in successfully',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Please verify your email address. A verification link has been sent to your email address.',
  emailNotVerifiedRecentlySent:
    'Please verify your email address using the link we sent you. You can ask for a new one in a few minutes.',
  loggedOut: 'Logged out successfully',
  resetMailSent: 'A reset password link has been sent to your given email ID. Please reset the password from there.',
  emailVerified: 'Email Verified successfully',
  verificationLinkInvalid: 'Invalid or expired verification link.',
  tokenRefreshed: 'Access token refreshed successfully',
  refreshTokenMissing: 'Refresh token is required',
  refreshTokenInvalid: 'Invalid or expired refresh token',
  refreshTokenReused: 'Refresh token was already used; please log in again',
  passwordReset: 'Password reset successfully',
  resetLinkInvalid: 'Invalid or expired reset password link. Please try with a new link.',
  passwordUpdated: 'Password updated successfully',
  curPasswordWrong: 'Current password is incorrect',
  samePassword: 'New password must be different from the current password',
  changesUpdated: 'Changes updated successfully',
  avatarUpdated: 'Avatar updated successfully',
  coverUpdated: 'Cover Image updated successfully',
  imageRequired: "Please choose an image file in the field 'image'",
  imageType: 'Only png and jpeg images are allowed',
  imageUnreadable: 'The image could not be read',
  channelNotFound: 'Channel not found',
  mailFailed: 'We could not send the email right now. Please try again later.',
} as const;

const trimmed = () => z.string().trim();

export const email = trimmed()
  .min(1, messages.emailRequired)
  .max(254, messages.emailInvalid)
  .pipe(z.email({ message: messages.emailInvalid }))
  .transform((e) => e.toLowerCase());

export const registerBody = z.object({
  fullName: oneLine().min(1, messages.nameRequired).max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
  email,
  password: trimmed()
    .min(1, messages.passwordRequired)
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  /** Not in the spec: in approval mode, what the moderators read beside the request (optional). */
  reason: z.string().trim().max(REGISTRATION_REASON_MAX, `The reason must be at most ${REGISTRATION_REASON_MAX} characters`).optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  email,
  password: z.string().min(1, messages.passwordRequired).max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof loginBody>;

export const forgotPasswordBody = z.object({
  email: trimmed()
    .min(1, messages.forgotEmailRequired)
    .max(254, messages.emailInvalid)
    .pipe(z.email({ message: messages.emailInvalid }))
    .transform((e) => e.toLowerCase()),
});

export const tokenQuery = z.object({ token: z.string().min(1, 'Token is required').max(200) });

/** Optional as a whole: the web app sends no body and relies on the httpOnly cookie. */
export const refreshBody = z.object({ refreshToken: z.string().min(1).max(200).optional() }).nullish();

const newPassword = z
  .string()
  .min(1, messages.newPasswordRequired)
  .min(PASSWORD_MIN, messages.newPasswordMin)
  .max(PASSWORD_MAX, `New password must be at most ${PASSWORD_MAX} characters`);

export const passwordResetBody = z
  .object({
    token: z.string().min(1, 'Token is required').max(200),
    newPassword,
    confirmPassword: z.string().min(1, messages.passwordsMustMatch),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: messages.passwordsMustMatch,
    path: ['confirmPassword'],
  });

export const changePasswordBody = z
  .object({
    /** Sent by the spec's client; ignored, the account comes from the access token. */
    email: z.string().max(254).optional(),
    /** Names the session to keep (API clients); the web app's cookie does the same. */
    refreshToken: z.string().min(1).max(200).optional(),
    curPassword: z.string().min(1, messages.curPasswordRequired).max(PASSWORD_MAX),
    newPassword,
    confirmPassword: z.string().min(1, messages.passwordsMustMatch),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: messages.passwordsMustMatch,
    path: ['confirmPassword'],
  });

export const role = z.enum(roles);

/** The logged-in user as the login answer and GET users/me carry it. */
export const authUser = z.object({
  _id: z.string(),
  userName: z.string(),
  fullName: z.string(),
  email: z.string(),
  avatar: imageRef,
  coverImage: imageRef,
  role,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AuthUser = z.infer<typeof authUser>;

export const loginResult = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: authUser,
});
export type LoginResult = z.infer<typeof loginResult>;

export const refreshResult = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type RefreshResult = z.infer<typeof refreshResult>;

/** Logout names the session by its refresh token (body or the httpOnly cookie). */
export const logoutBody = refreshBody;

export const userResult = z.object({ user: authUser });
