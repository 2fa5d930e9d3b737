import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InstanceSettings, Role } from '@glimpse/contract';
import { session } from '@/lib/session.ts';
import { fakeApi, renderApp } from '@/test/render.tsx';

beforeEach(() => {
  toast.remove();
  session.clear();
});

// Decimal units, as the quota's messages: 1 GB = 1,000,000,000 bytes.
const GB = 1_000_000_000;
const stored: InstanceSettings = {
  name: 'Film Club',
  description: 'Short films',
  about: '',
  registrationMode: 'open',
  signupAllowedDomains: ['uni.example'],
  signupBlockedDomains: [],
  quotaBytes: 5 * GB,
  dailyQuotaBytes: null,
  maxVideoMinutes: 60,
  commentsEnabledByDefault: true,
  livesEnabled: false,
  maxLivesPerInstance: 4,
  maxLivesPerUser: 1,
  maxLiveMinutes: 240,
};

function serve(role: Role = 'admin') {
  session.setAccessToken('T');
  return fakeApi((url, init) => {
    if (url.pathname === '/api/v1/users/me') return { data: { user: { _id: 'u1', userName: 'ada', fullName: 'Ada', email: 'ada@x.io', avatar: null, coverImage: null, role } } };
    if (url.pathname === '/api/v1/admin/settings' && init.method === 'PATCH') {
      return { data: { ...stored, ...JSON.parse(init.body as string) }, message: 'Instance settings updated successfully' };
    }
    if (url.pathname === '/api/v1/admin/settings') return { data: stored };
    return { data: { data: [], hasNextPage: false, nextCursor: null } };
  });
}

const patches = (calls: ReturnType<typeof serve>) => calls.filter((c) => c.method === 'PATCH');

describe('/admin/settings', () => {
  it('shows every setting, and saves the changes as the contract wants them with the server message', async () => {
    const calls = serve();
    renderApp('/admin/settings');
    const name = await screen.findByLabelText('Instance name');
    expect(name).toHaveValue('Film Club');
    expect(screen.getByLabelText('Allowed signup email domains')).toHaveValue('uni.example');
    expect(screen.getByLabelText('Storage quota per user')).toHaveValue('5');
    expect(screen.getByLabelText('Storage quota per user: unit')).toHaveValue('GB');
    expect(screen.getByLabelText('Upload quota per user per day')).toHaveValue('');
    expect(screen.getAllByText('Leave empty for no limit.')).toHaveLength(2);
    expect(screen.getByRole('radio', { name: /^Open/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Comments are on for new videos' })).toBeChecked();

    await userEvent.clear(name);
    await userEvent.type(name, 'Tube Club');
    await userEvent.click(screen.getByRole('radio', { name: /^Approval/ }));
    await userEvent.type(screen.getByLabelText('Blocked signup email domains'), 'Spam.example{enter}{enter}junk.example ');
    await userEvent.type(screen.getByLabelText('Upload quota per user per day'), '500');
    await userEvent.selectOptions(screen.getByLabelText('Upload quota per user per day: unit'), 'MB');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Comments are on for new videos' }));
    expect(screen.getByRole('checkbox', { name: 'Creators can go live (RTMP from OBS)' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Creators can go live (RTMP from OBS)' }));
    const perUser = screen.getByLabelText('Lives on air at once, per creator');
    await userEvent.clear(perUser);
    await userEvent.type(perUser, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Instance settings updated successfully')).toBeInTheDocument();
    expect(patches(calls)).toHaveLength(1);
    expect(patches(calls)[0]!.body).toEqual({
      name: 'Tube Club',
      description: 'Short films',
      about: '',
      registrationMode: 'approval',
      signupAllowedDomains: ['uni.example'],
      signupBlockedDomains: ['spam.example', 'junk.example'],
      quotaBytes: 5 * GB,
      // '500 MB' is 500,000,000 bytes, not 524,288,000.
      dailyQuotaBytes: 500_000_000,
      maxVideoMinutes: 60,
      commentsEnabledByDefault: false,
      livesEnabled: true,
      maxLivesPerInstance: 4,
      maxLivesPerUser: 2,
      maxLiveMinutes: 240,
    });
  });

  it('an empty quota is no limit (null)', async () => {
    const calls = serve();
    renderApp('/admin/settings');
    await userEvent.clear(await screen.findByLabelText('Storage quota per user'));
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(patches(calls)[0]!.body).toMatchObject({ quotaBytes: null, dailyQuotaBytes: null });
  });

  it('refuses a bad domain, a negative quota and a zero duration next to their fields, and sends nothing', async () => {
    const calls = serve();
    renderApp('/admin/settings');
    await userEvent.type(await screen.findByLabelText('Allowed signup email domains'), '{enter}not a domain');
    const quota = screen.getByLabelText('Storage quota per user');
    await userEvent.clear(quota);
    await userEvent.type(quota, '-1');
    const minutes = screen.getByLabelText('Maximum video duration (minutes)');
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '0');
    const perInstance = screen.getByLabelText('Lives on air at once, whole instance');
    await userEvent.clear(perInstance);
    await userEvent.type(perInstance, '1.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('"not a domain": Enter a domain such as example.com')).toBeInTheDocument();
    expect(screen.getByText('Enter a whole number of lives, 1 or more')).toBeInTheDocument();
    expect(screen.getByLabelText('Allowed signup email domains')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Enter a size of 0 or more, or leave empty for no limit')).toBeInTheDocument();
    expect(screen.getByText('Enter a whole number of minutes from 1 to 1440')).toBeInTheDocument();
    expect(patches(calls)).toEqual([]);
  });

  it('previews the about text as safe markdown', async () => {
    serve();
    renderApp('/admin/settings');
    await userEvent.type(await screen.findByLabelText('About page (markdown)'), '# Rules{enter}{enter}Be **kind**. <b>raw</b>');
    await userEvent.click(screen.getByRole('button', { name: 'Show preview' }));
    const preview = screen.getByRole('region', { name: 'About page preview' });
    expect(within(preview).getByRole('heading', { name: 'Rules' })).toBeInTheDocument();
    expect(within(preview).getByText('kind').tagName).toBe('STRONG');
    expect(within(preview).getByText(/<b>raw<\/b>/)).toBeInTheDocument();
  });

  it('is a tab for admins only: moderators see Registrations but not Settings', async () => {
    serve('moderator');
    renderApp('/admin');
    const tabs = within(await screen.findByRole('navigation', { name: 'Administration sections' }));
    expect(tabs.getByRole('link', { name: 'Registrations' })).toHaveAttribute('href', '/admin/registrations');
    expect(tabs.queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
  });
});
