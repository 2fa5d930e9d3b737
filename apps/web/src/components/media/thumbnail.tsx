import clsx from 'clsx';
import { PlaySquare } from 'lucide-react';
import type { ReactNode } from 'react';

/** A 16:9 box reserved before the image loads, so lists never shift. */
export function Thumbnail({ src, alt = '', badge, className, children }: { src?: string | null; alt?: string; badge?: string; className?: string; children?: ReactNode }) {
  return (
    <div className={clsx('relative aspect-video w-full overflow-hidden rounded-xl bg-surface-strong', className)}>
      {src ? (
        <img src={src} alt={alt} loading="lazy" decoding="async" className="absolute inset-0 size-full object-cover" />
      ) : (
        <PlaySquare className="absolute inset-0 m-auto size-10 text-fg-subtle" aria-hidden />
      )}
      {badge && <span className="absolute bottom-1.5 right-1.5 rounded bg-media/80 px-1.5 py-0.5 text-xs font-medium text-on-media">{badge}</span>}
      {children}
    </div>
  );
}
