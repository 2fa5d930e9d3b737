import clsx from 'clsx';
import type { ButtonHTMLAttributes, ReactNode } from 'react';

/** The player's selects (quality, speed). */
export const PLAYER_SELECT = 'h-8 rounded bg-media/60 px-1 text-xs focus-visible:outline focus-visible:outline-2 focus-visible:outline-on-media';

/** A round icon button of the player's control bar: its label is its accessible name. */
export function ControlButton({
  label,
  children,
  className,
  ...rest
}: { label: string; children: ReactNode } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'type'>) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      className={clsx(
        'flex size-8 shrink-0 items-center justify-center rounded-full hover:bg-on-media/20 focus-visible:outline focus-visible:outline-2 focus-visible:outline-on-media sm:size-9',
        className,
      )}
      {...rest}
    >
      {children}
    </button>
  );
}
