import clsx from 'clsx';
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';

/** The ids a control's aria-describedby names: its help line and its error, when shown. */
export const describedBy = (id: string, help?: string, error?: string) => [help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

/** A label above one control (children, carrying `id`), then its help line and error message. */
export function FieldFrame({ id, label, help, error, className, children }: { id: string; label: string; help?: string; error?: string; className?: string; children: ReactNode }) {
  return (
    <div className={clsx('flex flex-col gap-1', className)}>
      <label htmlFor={id} className="text-sm font-medium text-fg-muted">
        {label}
      </label>
      {children}
      {help && (
        <p id={`${id}-help`} className="text-xs text-fg-muted">
          {help}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

export const fieldBorder = (error?: string) => (error ? 'border-danger' : 'border-line-strong');

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  help?: string;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its help line and error message tied by aria-describedby. */
export function TextField({ label, help, error, className, id, ref, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <FieldFrame id={inputId} label={label} help={help} error={error} className={className}>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(inputId, help, error)}
        className={clsx('h-10 rounded-lg border bg-surface px-3 text-sm disabled:bg-surface-subtle disabled:text-fg-muted', fieldBorder(error))}
        {...rest}
      />
    </FieldFrame>
  );
}

export interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  help?: string;
  error?: string;
  /** Monospaced (markdown sources). */
  mono?: boolean;
  ref?: Ref<HTMLTextAreaElement>;
}

/** TextField's multi-line sibling. */
export function TextArea({ label, help, error, mono, className, id, ref, rows = 3, ...rest }: TextAreaProps) {
  const autoId = useId();
  const areaId = id ?? autoId;
  return (
    <FieldFrame id={areaId} label={label} help={help} error={error} className={className}>
      <textarea
        ref={ref}
        id={areaId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(areaId, help, error)}
        className={clsx('rounded-lg border bg-surface px-3 py-2 text-sm', mono && 'font-mono', fieldBorder(error))}
        {...rest}
      />
    </FieldFrame>
  );
}
