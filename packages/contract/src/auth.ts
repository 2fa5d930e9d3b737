import { z } from 'zod';
import { imageRef } from './common.ts';

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 60;
export const USERNAME_MAX = 30;

export const messages = {
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
} as const;

const trimmed = () => z.string().trim();

export const email = trimmed()
  .min(1, messages.emailRequired)
  .max(254, messages.emailInvalid)
  .pipe(z.email({ message: messages.emailInvalid }))
  .transform((e) => e.toLowerCase());

export const registerBody = z.object({
  fullName: trimmed().min(1, messages.nameRequired).max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
  email,
  password: trimmed()
    .min(1, messages.passwordRequired)
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
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

export const refreshBody = z.object({ refreshToken: z.string().min(1).max(200).optional() }).default({});

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
    email: z.string().optional(),
    curPassword: z.string().min(1, messages.curPasswordRequired).max(PASSWORD_MAX),
    newPassword,
    confirmPassword: z.string().min(1, messages.passwordsMustMatch),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    message: messages.passwordsMustMatch,
    path: ['confirmPassword'],
  });

/** The logged-in user as the login answer and GET users/me carry it. */
export const authUser = z.object({
  _id: z.string(),
  userName: z.string(),
  fullName: z.string(),
  email: z.string(),
  avatar: imageRef,
  coverImage: imageRef,
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
