import clsx from 'clsx';
import { useState } from 'react';
import { initialsAvatar } from '@/lib/avatar.ts';

/** A round avatar; falls back to generated initials when there is no image or it fails to load. */
export function Avatar({ src, fullName, size = 40, className }: { src?: string | null; fullName: string; size?: number; className?: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  const url = src && broken !== src ? src : initialsAvatar(fullName, size);
  return (
    <img
      src={url}
      alt={fullName}
      width={size}
      height={size}
      style={{ width: size, height: size }}
      className={clsx('shrink-0 rounded-full bg-surface-strong object-cover', className)}
      onError={() => setBroken(src ?? null)}
    />
  );
}
