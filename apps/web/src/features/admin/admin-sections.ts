import type { Role } from '@glimpse/contract';
import { paths } from '@/config/paths.ts';
import type { MessageKey } from '@/lib/i18n/en.ts';

/** The staff area's tabs (labels are catalogue keys); `adminOnly` ones are hidden from moderators (the server refuses them anyway). */
export const adminSections: { label: MessageKey; to: string; end?: boolean; adminOnly?: boolean }[] = [
  { label: 'admin.tabOverview', to: paths.admin.getHref(), end: true },
  { label: 'admin.tabUsers', to: paths.admin.users.getHref() },
  { label: 'admin.tabRegistrations', to: paths.admin.registrations.getHref() },
  { label: 'admin.tabReports', to: paths.admin.reports.getHref() },
  { label: 'admin.tabLog', to: paths.admin.log.getHref() },
  { label: 'admin.tabSettings', to: paths.admin.settings.getHref(), adminOnly: true },
  { label: 'admin.tabWatchedWords', to: paths.admin.watchedWords.getHref(), adminOnly: true },
  { label: 'admin.tabFederation', to: paths.admin.federation.getHref(), adminOnly: true },
  { label: 'admin.tabHeldTweets', to: paths.admin.heldTweets.getHref() },
];

export const sectionsFor = (role: Role) => adminSections.filter((s) => !s.adminOnly || role === 'admin');
