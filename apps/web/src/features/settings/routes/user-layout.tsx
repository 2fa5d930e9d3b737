import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Outlet, useLocation, useMatch, useNavigate, useParams } from 'react-router';
import { NotAvailable } from '@/components/ui/not-available.tsx';
import { paths, userNameFromAdminName } from '@/config/paths.ts';
import { useStoredUser } from '@/lib/session.ts';
import { guardMessage } from '../components/guard.ts';

export default function UserLayout() {
  const userName = userNameFromAdminName(useParams().adminName);
  const user = useStoredUser();
  const onDashboard = useMatch(`${paths.user.root.path}/${paths.user.dashboard.path}`) !== null;
  const renaming = (useLocation().state as { renamed?: boolean } | null)?.renamed === true;
  const navigate = useNavigate();
  const message = userName ? guardMessage(user, userName, onDashboard, renaming) : null;

  useEffect(() => {
    if (!message) return;
    toast.error(message, { id: message });
    navigate(paths.home.getHref(), { replace: true });
  }, [message, navigate]);

  if (!userName) return <NotAvailable />;
  if (message || !user) return null;
  return <Outlet context={{ user }} />;
}
