import clsx from 'clsx';
import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'dark';

const variants: Record<Variant, string> = {
  primary: 'bg-accent text-on-accent hover:bg-accent-hover',
  secondary: 'bg-surface-subtle text-fg hover:bg-surface-strong',
  ghost: 'bg-transparent text-fg hover:bg-surface-subtle',
  danger: 'bg-danger-solid text-on-accent hover:bg-danger-hover',
  dark: 'bg-inverse text-on-inverse hover:bg-inverse/85',
};

const DIMMED = 'bg-surface-subtle text-fg-muted';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 'sm' | 'md';
  /**
   * Spec §5: the submit looks dimmed while a field is empty, yet stays clickable so the errors show.
   * Dimmed and disabled share one readable look (muted text on a grey fill, over 4.5:1 in both
   * themes), not a faded blue; a submit that would do nothing is `disabled` instead (docs/design.md).
   */
  dimmed?: boolean;
  loading?: boolean;
}

export function Button({ variant = 'primary', size = 'md', dimmed, loading, className, disabled, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      data-dimmed={dimmed || undefined}
      className={clsx(
        'inline-flex items-center justify-center gap-2 rounded-full font-medium transition-colors disabled:cursor-not-allowed',
        size === 'sm' ? 'h-8 px-3 text-sm' : 'h-10 px-4 text-sm',
        dimmed || disabled || loading ? DIMMED : variants[variant],
        className,
      )}
      {...rest}
    >
      {loading && <span className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden />}
      {children}
    </button>
  );
}

export interface IconButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Accessible name; also the tooltip. */
  label: string;
}

export function IconButton({ label, className, children, type = 'button', ...rest }: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={clsx('inline-flex size-10 shrink-0 items-center justify-center rounded-full text-fg hover:bg-surface-subtle disabled:opacity-50', className)}
      {...rest}
    >
      {children}
    </button>
  );
}
