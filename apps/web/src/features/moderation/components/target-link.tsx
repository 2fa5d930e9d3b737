import type { ReportTargetKind, TargetContext } from '@glimpse/contract';
import { Link } from 'react-router';
import { targetHref } from '../api/moderation-api.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const kindLabels: Record<ReportTargetKind, MessageKey> = {
  video: 'moderation.targetVideo',
  comment: 'moderation.targetComment',
  tweet: 'moderation.targetTweet',
  channel: 'moderation.targetChannel',
  federatedComment: 'moderation.targetFederatedComment',
};

/**
 * "Video: Title" linking to where the item is shown; a deleted item is named as such. `linked`
 * false: the public page would not show it (taken down, suspended owner), so no link.
 */
export function TargetLink({ kind, target, linked = true }: { kind: ReportTargetKind; target: TargetContext; linked?: boolean }) {
  const href = linked ? targetHref(kind, target) : null;
  const label = target.label ?? t('moderation.targetDeleted');
  return (
    <span className="min-w-0">
      <span className="text-fg-muted">{t('moderation.targetOf', { kind: t(kindLabels[kind]) })}</span>
      {href && target.label ? (
        <Link to={href} className="font-medium text-link hover:underline">
          {label}
        </Link>
      ) : (
        <span className="font-medium">{label}</span>
      )}
    </span>
  );
}
