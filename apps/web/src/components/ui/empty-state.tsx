import { Bell, ListVideo, MessageSquare, MessagesSquare, PlaySquare, ShieldCheck, Users } from 'lucide-react';
import type { ReactNode } from 'react';

const icons = {
  playlist: ListVideo,
  channel: Users,
  video: PlaySquare,
  tweet: MessagesSquare,
  comment: MessageSquare,
  subscriber: Bell,
  moderation: ShieldCheck,
} as const;

export type EmptyKind = keyof typeof icons;

/** The empty-state panel of spec §2: an icon for the entity type, a title and a line of text. */
export function EmptyState({ kind, title, text, children }: { kind: EmptyKind; title: string; text?: string; children?: ReactNode }) {
  const Icon = icons[kind];
  return (
    <section className="flex flex-col items-center gap-2 px-4 py-16 text-center" aria-label={title}>
      <span className="rounded-full bg-accent-subtle p-4 text-link">
        <Icon className="size-8" aria-hidden />
      </span>
      <h2 className="text-lg font-semibold">{title}</h2>
      {text && <p className="max-w-sm text-sm text-fg-muted">{text}</p>}
      {children}
    </section>
  );
}
