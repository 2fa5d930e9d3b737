import { Eye, MessageSquare, ThumbsUp, Users, type LucideIcon } from 'lucide-react';
import { formatCount } from '@/lib/format.ts';
import type { ChannelStats } from '@/types/api.ts';

const cards: { key: keyof ChannelStats; label: string; icon: LucideIcon }[] = [
  { key: 'totalViews', label: 'Total Views', icon: Eye },
  { key: 'totalSubscribers', label: 'Total Subscribers', icon: Users },
  { key: 'totalLikes', label: 'Total Likes', icon: ThumbsUp },
  { key: 'totalComments', label: 'Total Comments', icon: MessageSquare },
];

export function StatCards({ stats }: { stats: ChannelStats | undefined }) {
  return (
    <ul aria-label="Channel stats" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {cards.map(({ key, label, icon: Icon }) => (
        <li key={key} className="rounded-xl border border-zinc-200 p-4">
          <Icon className="mb-2 size-6 text-blue-600" aria-hidden />
          <p className="text-sm text-zinc-600">{label}</p>
          <p className="text-2xl font-bold" aria-label={`${label}: ${stats?.[key] ?? 0}`}>
            {stats ? formatCount(stats[key]) : '–'}
          </p>
        </li>
      ))}
    </ul>
  );
}
