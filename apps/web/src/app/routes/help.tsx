import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t, type MessageKey } from '@/lib/i18n/i18n.ts';

const TROUBLESHOOTING: MessageKey = 'help.comingSoon';

/** The FAQ as catalogue keys; `id` (the English title) keeps each section's anchor the same in every language. */
const sections: { id: string; title: MessageKey; faqs: [MessageKey, MessageKey][] }[] = [
  {
    id: 'Account',
    title: 'help.account',
    faqs: [
      ['help.createQ', 'help.createA'],
      ['help.forgotQ', 'help.forgotA'],
      ['help.profileQ', 'help.profileA'],
      ['help.passwordQ', 'help.passwordA'],
    ],
  },
  {
    id: 'Video management',
    title: 'help.videoManagement',
    faqs: [
      ['help.uploadQ', 'help.uploadA'],
      ['help.visibleQ', 'help.visibleA'],
      ['help.editQ', 'help.editA'],
    ],
  },
  {
    id: 'Watching',
    title: 'help.watching',
    faqs: [
      ['help.shortcutsQ', 'help.shortcutsA'],
      ['help.saveQ', 'help.saveA'],
      ['help.historyQ', 'help.historyA'],
    ],
  },
  {
    id: 'Troubleshooting',
    title: 'help.troubleshooting',
    faqs: [
      ['help.noPlayQ', TROUBLESHOOTING],
      ['help.noMailQ', TROUBLESHOOTING],
      ['help.brokenQ', TROUBLESHOOTING],
    ],
  },
];

export default function HelpRoute() {
  useDocumentTitle(t('help.title'));
  return (
    <div className="mx-auto max-w-3xl px-4 py-6">
      <h1 className="mb-6 text-2xl font-bold">{t('help.title')}</h1>
      {sections.map((s) => (
        <section key={s.id} className="mb-8" aria-labelledby={`faq-${s.id}`}>
          <h2 id={`faq-${s.id}`} className="mb-3 text-lg font-semibold">
            {t(s.title)}
          </h2>
          <div className="divide-y divide-line rounded-xl border border-line">
            {s.faqs.map(([q, a]) => (
              <details key={q} className="group p-4">
                <summary className="cursor-pointer rounded font-medium">{t(q)}</summary>
                <p className="mt-2 text-sm text-fg-muted">{t(a)}</p>
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
