import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTANCE } from '@/lib/public-config.ts';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp, type Handler } from '@/test/render.tsx';

const apiUser = { _id: 'u1', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, coverImage: null };
const api = (extra: Handler) =>
  fakeApi((url, init) => extra(url, init) ?? (url.pathname.endsWith('/users/me') ? { status: 401, message: 'Please login' } : undefined));

describe("the instance's name", () => {
  const named = (extra: Handler = () => undefined) =>
    api((url, init) => (url.pathname === '/api/v1/config' ? { data: { instance: { ...DEFAULT_INSTANCE, name: 'Ciné Club' } } } : extra(url, init)));

  it('is on the login card, in its heading and its link home', async () => {
    named();
    renderApp('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in to Ciné Club' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ciné Club home' })).toHaveTextContent('Ciné Club');
    expect(screen.queryByText('Glimpse')).toBeNull();
  });

  it('is on the register card', async () => {
    named();
    renderApp('/register');
    expect(await screen.findByRole('link', { name: 'Ciné Club home' })).toHaveTextContent('Ciné Club');
    await waitFor(() => expect(document.title).toBe('Register - Ciné Club'));
  });
});

describe('register', () => {
  it('shows errors only for touched fields, word for word, and dims submit while a field is empty', async () => {
    api(() => undefined);
    renderApp('/register');
    const name = await screen.findByLabelText('Name');
    const submit = screen.getByRole('button', { name: 'Register' });
    expect(submit).toHaveAttribute('data-dimmed');
    expect(submit).toBeEnabled();
    await userEvent.click(name);
    await userEvent.tab(); // touch name, move to email
    expect(await screen.findByText('Please enter your name')).toBeInTheDocument();
    expect(screen.queryByText('Please enter your email')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.tab();
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Email'));
    expect(await screen.findByText('Please enter your email')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Password'));
    await userEvent.tab();
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();
  });

  it('sends trimmed values, toasts the spec message and goes to login', async () => {
    const calls = api((url) => (url.pathname.endsWith('/auths/register') ? { status: 201, data: {} } : undefined));
    const { router } = renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Name'), '  Ada Lovelace ');
    await userEvent.type(screen.getByLabelText('Email'), ' ada@x.io ');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    expect(screen.getByRole('button', { name: 'Register' })).not.toHaveAttribute('data-dimmed');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('An email has been sent to your email address. Please verify your email address.')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname.endsWith('/auths/register'))!.body).toEqual({ fullName: 'Ada Lovelace', email: 'ada@x.io', password: 'secret1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('toasts the server message on failure', async () => {
    api((url) => (url.pathname.endsWith('/auths/register') ? { status: 409, message: 'Email already registered' } : undefined));
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@x.io');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Email already registered')).toBeInTheDocument();
  });
});

describe('login', () => {
  const fill = async () => {
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@x.io');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
  };

  it('logs in: stores the user and token, toasts, goes home', async () => {
    api((url) =>
      url.pathname.endsWith('/auths/login') ? { data: { accessToken: 'A', refreshToken: 'R', user: apiUser }, message: 'ok' } : url.pathname.endsWith('/videos') ? { data: { videos: [], hasNextPage: false, nextCursor: null } } : undefined,
    );
    const { router } = renderApp('/login');
    await fill();
    expect(await screen.findByText('Logged in successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(session.getAccessToken()).toBe('A');
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual({ userId: 'u1', userName: 'ada', fullName: 'Ada Lovelace', email: 'ada@x.io', avatar: null, cover: null });
  });

  it('shows the verify-email notice on 403', async () => {
    api((url) => (url.pathname.endsWith('/auths/login') ? { status: 403, message: 'Please verify your email' } : undefined));
    renderApp('/login');
    await fill();
    expect(await screen.findByRole('alert')).toHaveTextContent(/not verified/);
    expect(session.getUser()).toBeNull();
  });

  it('toasts the server message on other failures', async () => {
    api((url) => (url.pathname.endsWith('/auths/login') ? { status: 401, message: 'Invalid email or password' } : undefined));
    renderApp('/login');
    await fill();
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
  });

  it('sends a forgot-password mail from the dialog, checking the email first', async () => {
    const calls = api((url) => (url.pathname.endsWith('/forgot-password-mail') ? { data: null } : undefined));
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forgot password' });
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Email is required to send reset password link.')).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname.endsWith('/forgot-password-mail'))).toBe(false);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ada@x.io');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('A reset password link has been sent to your given email ID. Please reset the password from there.')).toBeInTheDocument();
    expect(dialog).not.toBeInTheDocument();
  });
});

describe('password reset', () => {
  it('validates with the spec messages and sends the token', async () => {
    const calls = api((url) => (url.pathname.endsWith('/auths/password-reset') ? { data: null, message: 'done' } : undefined));
    const { router } = renderApp('/password-reset?token=tok123');
    await userEvent.type(await screen.findByLabelText('New password'), '123');
    await userEvent.tab();
    expect(await screen.findByText('New password must of be at least 6 characters')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('New password'));
    expect(await screen.findByText('Please enter your new password')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New password'), 'secret12');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret13');
    await userEvent.tab();
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret12');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname.endsWith('/password-reset'))!.body).toEqual({ token: 'tok123', newPassword: 'secret12', confirmPassword: 'secret12' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('explains an invalid link on 401', async () => {
    api((url) => (url.pathname.endsWith('/auths/password-reset') ? { status: 401, message: 'Invalid token' } : undefined));
    renderApp('/password-reset?token=bad');
    await userEvent.type(await screen.findByLabelText('New password'), 'secret12');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret12');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Invalid or expired reset password link. Please try with a new link.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });
});

describe('email verification', () => {
  it('shows Verifying... then success, calling the API once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls = api((url) => (url.pathname.endsWith('/email-verification') ? { data: null, message: 'Email verified' } : undefined));
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).includes('email-verification')) await gate;
      return realFetch(...args);
    }) as typeof fetch;
    renderApp('/email-verification?token=tok');
    expect(await screen.findByText('Verifying...')).toBeInTheDocument();
    release();
    expect(await screen.findByText('Email Verified successfully')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Email verified' })).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.endsWith('/email-verification'))).toHaveLength(1);
    expect(calls.find((c) => c.url.pathname.endsWith('/email-verification'))!.url.searchParams.get('token')).toBe('tok');
  });

  it('shows the invalid-link texts on failure and a Login button', async () => {
    api((url) => (url.pathname.endsWith('/email-verification') ? { status: 400, message: 'Invalid token' } : undefined));
    renderApp('/email-verification?token=bad');
    expect(await screen.findByText('Invalid or expired verification link.')).toBeInTheDocument();
    expect(screen.getByText('Please request a new verification email.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });
});
