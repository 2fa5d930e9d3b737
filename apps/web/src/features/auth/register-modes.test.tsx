import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RegistrationMode } from '@glimpse/contract';
import { fakeApi, renderApp } from '@/test/render.tsx';

const PENDING = 'An email has been sent to your email address. Please verify your email address. A moderator will review your account before you can log in.';

function serve(registrationMode: RegistrationMode) {
  return fakeApi((url) => {
    if (url.pathname === '/api/v1/users/me') return { status: 401, message: 'Please login' };
    if (url.pathname === '/api/v1/config') return { data: { instance: { name: 'Glimpse', description: '', registrationMode, maxVideoMinutes: 60 } } };
    if (url.pathname === '/api/v1/auths/register') return { status: 201, data: {}, message: PENDING };
    return undefined;
  });
}

describe('register page and the registration mode', () => {
  it('closed: a notice instead of the form', async () => {
    serve('closed');
    renderApp('/register');
    expect(await screen.findByRole('heading', { name: 'Registration is closed' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Registration is closed on this instance.');
    expect(screen.queryByRole('button', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it('approval: says accounts are reviewed, sends the optional note, and ends on the pending notice', async () => {
    const calls = serve('approval');
    renderApp('/register');
    expect(await screen.findByText('New accounts on this instance are reviewed by a moderator before they can log in.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name'), 'Ren Ito');
    await userEvent.type(screen.getByLabelText('Email'), 'ren@uni.example');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.type(screen.getByLabelText('Why do you want to join? (optional)'), ' I film the chess club. ');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Your account will be reviewed' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(PENDING);
    expect(calls.find((c) => c.url.pathname === '/api/v1/auths/register')!.body).toEqual({
      fullName: 'Ren Ito',
      email: 'ren@uni.example',
      password: 'secret1',
      reason: 'I film the chess club.',
    });
  });
});

describe('login of an account waiting for approval', () => {
  it("shows the server's waiting message, not the verify-email notice", async () => {
    fakeApi((url) => {
      if (url.pathname === '/api/v1/users/me') return { status: 401, message: 'Please login' };
      if (url.pathname === '/api/v1/auths/login') return { status: 403, message: 'Your account is waiting for approval by the moderators.' };
      return undefined;
    });
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ren@uni.example');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is waiting for approval by the moderators.');
    expect(screen.queryByText(/not verified yet/)).not.toBeInTheDocument();
  });
});
