import { Outlet, useParams } from 'react-router';
import { userNameFromAdminName } from '@/config/paths.ts';
import { NotAvailable } from '@/components/ui/not-available.tsx';

/** Placeholder: Web app II adds the channel header and tab navigation (issue 6). */
export default function ChannelLayout() {
  const userName = userNameFromAdminName(useParams().adminName);
  if (!userName) return <NotAvailable />;
  return <Outlet />;
}
