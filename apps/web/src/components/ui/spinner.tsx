import clsx from 'clsx';

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={clsx('flex justify-center p-6', className)}>
      <span className="size-8 animate-spin rounded-full border-4 border-zinc-300 border-t-blue-600" aria-hidden />
      <span className="sr-only">{label}</span>
    </div>
  );
}
