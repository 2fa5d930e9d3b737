import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Outlet, useLocation, useMatch, useNavigate, useParams } from 'react-router';
import { NotAvailable } from '@/components/ui/not-available.tsx';
import { paths, userNameFromAdminName } from '@/config/paths.ts';
import { session, useStoredUser, type StoredUser } from '@/lib/session.ts';
import { guardMessage } from '../components/guard.ts';

const childPaths = [
  paths.user.dashboard.path,
  paths.user.changePassword.path,
  paths.user.personalInformation.path,
  paths.user.blockedUsers.path,
  paths.user.notifications.path,
] as string[];

export default function UserLayout() {
  const userName = userNameFromAdminName(useParams().adminName);
  const user = useStoredUser();
  const single = useMatch(`${paths.user.root.path}/:child`)?.params.child;
  // The dashboard's analytics pages are guarded as the dashboard itself.
  const analytics = useMatch(`${paths.user.root.path}/${paths.user.analytics.path}/*`) !== null;
  const child = analytics ? paths.user.dashboard.path : single;
  const onDashboard = child === paths.user.dashboard.path;
  // Only the own-channel screens are guarded; the index and unknown subpaths are not-available pages.
  const guarded = child !== undefined && childPaths.includes(child);
  // After a rename the profile page moves here with the renamed user; the stored user
  // follows only once this URL is on screen, so the guard never sees the two out of step.
  const renamed = (useLocation().state as { renamedUser?: StoredUser } | null)?.renamedUser;
  const renaming = !!renamed && renamed.userName === userName && renamed.userId === user?.userId;
  const navigate = useNavigate();
  const message = userName && guarded ? guardMessage(user, userName, onDashboard, renaming) : null;

  useEffect(() => {
    if (!message) return;
    toast.error(message, { id: message });
    navigate(paths.home.getHref(), { replace: true });
  }, [message, navigate]);

  useEffect(() => {
    if (renaming && renamed && session.getUser()?.userName !== renamed.userName) session.setUser(renamed);
  }, [renaming, renamed]);

  if (!userName) return <NotAvailable />;
  if (!guarded) return <Outlet />;
  if (message || !user) return null;
  return <Outlet context={{ user }} />;
}
