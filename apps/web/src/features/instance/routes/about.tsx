import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Markdown } from '@/components/ui/markdown.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { aboutQueryOptions } from '@/lib/instance-about.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

/** The instance's about/terms page, written by its admins in markdown (rendered without raw HTML). */
export default function About() {
  useDocumentTitle(t('nav.about'));
  const about = useQuery(aboutQueryOptions);
  if (about.isPending) return <Spinner label={t('about.loading')} />;
  if (about.isError) return <EmptyState kind="moderation" title={t('about.error')} text={errorMessage(about.error)} />;
  const { name, description, about: text } = about.data;
  return (
    <article className="mx-auto flex w-full max-w-3xl flex-col gap-3 p-4">
      <h1 className="text-2xl font-semibold">{t('about.title', { name })}</h1>
      {description && <p className="text-fg-muted">{description}</p>}
      {text.trim() ? (
        <Markdown source={text} className="mt-2" />
      ) : (
        <EmptyState kind="moderation" title={t('about.empty')} text={t('about.emptyText')} />
      )}
    </article>
  );
}
