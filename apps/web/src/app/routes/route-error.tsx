import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotAvailable } from '@/components/ui/not-available.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/** Router error boundary: 404s look like unknown paths; anything else offers a reload. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotAvailable />;
  console.warn('Route error', error);
  return (
    <section className="flex flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-xl font-semibold">{t('routeError.heading')}</h1>
      <button type="button" className="rounded-full bg-accent px-5 py-2 text-sm font-medium text-on-accent" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
    </section>
  );
}
