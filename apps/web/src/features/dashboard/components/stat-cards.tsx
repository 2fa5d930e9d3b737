import { Eye, MessageSquare, ThumbsUp, Users, type LucideIcon } from 'lucide-react';
import { formatCount, formatNumber } from '@/lib/format.ts';
import type { ChannelStats } from '@/types/api.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const cards: { key: keyof ChannelStats; label: MessageKey; icon: LucideIcon }[] = [
  { key: 'totalViews', label: 'stats.totalViews', icon: Eye },
  { key: 'totalSubscribers', label: 'stats.totalSubscribers', icon: Users },
  { key: 'totalLikes', label: 'stats.totalLikes', icon: ThumbsUp },
  { key: 'totalComments', label: 'stats.totalComments', icon: MessageSquare },
];

export function StatCards({ stats }: { stats: ChannelStats | undefined }) {
  return (
    <ul aria-label={t('stats.label')} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map(({ key, label, icon: Icon }) => (
        <li key={key} className="rounded-xl border border-line p-4">
          <Icon className="mb-2 size-6 text-link" aria-hidden />
          <p className="text-sm text-fg-muted">{t(label)}</p>
          <p className="text-2xl font-bold" aria-label={`${t(label)}: ${formatNumber(stats?.[key] ?? 0)}`}>
            {stats ? formatCount(stats[key]) : '–'}
          </p>
        </li>
      ))}
    </ul>
  );
}
