import { isStaff, type Role } from '@glimpse/contract';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { NavLink, Outlet, useNavigate, useOutletContext } from 'react-router';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TabStrip } from '@/components/ui/tab-strip.tsx';
import { paths } from '@/config/paths.ts';
import { meQueryOptions } from '@/lib/me.ts';
import { sectionsFor } from '../admin-sections.ts';
import { t } from '@/lib/i18n/i18n.ts';

export const ADMIN_ONLY_MESSAGE = 'Only moderators and admins can open the administration.';

/** What each staff page gets from the layout: the viewer's role as users/me tells it. */
export interface AdminContext {
  role: Role;
}
export const useAdminContext = () => useOutletContext<AdminContext>();

/**
 * The staff area: a heading, its sections as tabs, and the section below. The role comes from
 * GET users/me (not the stored copy), so a revoked moderator is sent home; the server checks the
 * role again on every staff call.
 */
export default function Administration() {
  const me = useQuery(meQueryOptions);
  const navigate = useNavigate();
  const role = me.data?.role;
  const refused = !me.isPending && !isStaff(role);

  useEffect(() => {
    if (!refused) return;
    toast.error(t('admin.onlyStaff'), { id: ADMIN_ONLY_MESSAGE });
    navigate(paths.home.getHref(), { replace: true });
  }, [refused, navigate]);

  if (me.isPending) return <Spinner />;
  if (refused || !role) return null;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-semibold">{t('nav.administration')}</h1>
      <TabStrip label={t('admin.sections')} className="-mx-1 border-b border-line">
        <ul className="flex min-w-max gap-1">
          {sectionsFor(role).map((s) => (
            <li key={s.to}>
              <NavLink
                to={s.to}
                end={s.end}
                className={({ isActive }) =>
                  clsx(
                    'block whitespace-nowrap rounded-t-md px-3 py-2 text-sm font-medium',
                    isActive ? 'border-b-2 border-accent text-link' : 'text-fg-muted hover:text-fg',
                  )
                }
              >
                {t(s.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </TabStrip>
      <Outlet context={{ role } satisfies AdminContext} />
    </div>
  );
}
