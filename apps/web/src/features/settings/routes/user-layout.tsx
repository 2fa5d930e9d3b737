import { Outlet, useParams } from 'react-router';
import { userNameFromAdminName } from '@/config/paths.ts';
import { NotAvailable } from '@/components/ui/not-available.tsx';

/** Placeholder: Web app II adds the own-channel guard and settings header (issue 6). */
export default function UserLayout() {
  const userName = userNameFromAdminName(useParams().adminName);
  if (!userName) return <NotAvailable />;
  return <Outlet />;
}
