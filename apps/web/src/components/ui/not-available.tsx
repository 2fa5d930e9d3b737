import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** Unknown paths, channel and user index routes (spec §2); with other words, a page that is gone for a known reason. */
export function NotAvailable({ title = t('notFound.title'), heading = t('notFound.heading'), text = t('notFound.text') }: { title?: string; heading?: string; text?: string }) {
  useDocumentTitle(title);
  return (
    <section className="flex flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-xl font-semibold">{heading}</h1>
      <p className="text-sm text-fg-muted">{text}</p>
      <Link to={paths.home.getHref()} className="rounded-full bg-accent px-5 py-2 text-sm font-medium text-on-accent hover:bg-accent-hover">
        {t('notFound.goHome')}
      </Link>
    </section>
  );
}
