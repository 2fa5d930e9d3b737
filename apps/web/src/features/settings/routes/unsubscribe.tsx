import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { unsubscribeScopeOf } from '@glimpse/contract';
import { AuthCard } from '@/components/ui/auth-card.tsx';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useInstance } from '@/lib/public-config.ts';
import { session } from '@/lib/session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { unsubscribe } from '../api/settings-api.ts';
import { scopeLabel } from '../components/mail-labels.ts';
import { t } from '@/lib/i18n/i18n.ts';

// A message's {link} is filled with this mark, then the link element goes where it stands.
const LINK = '\u0000';
const withLink = (text: string, link: ReactNode) => {
  const [before, after] = text.split(LINK);
  return (
    <>
      {before}
      {link}
      {after}
    </>
  );
};

/**
 * The unsubscribe link of a notification mail. Opening it changes nothing (mail scanners follow
 * links): it says which mails will stop and turns them off only when the button is pressed.
 */
export default function UnsubscribeRoute() {
  const token = useSearchParams()[0].get('token') ?? '';
  const scope = unsubscribeScopeOf(token);
  const stop = useMutation({ mutationFn: () => unsubscribe(token) });
  const user = session.getUser();
  const { instance } = useInstance();
  useDocumentTitle(t('settings.unsubscribe'));
  const settingsLink = user ? (
    <Link to={paths.user.notifications.getHref(user.userName)} className="text-link underline">
      {t('settings.yourNotifSettings')}
    </Link>
  ) : (
    t('settings.yourNotifSettingsPath')
  );

  return (
    <AuthCard title={t('settings.unsubscribe')}>
      <div className="flex flex-col gap-3 text-center" aria-live="polite">
        {!scope || stop.isError ? (
          <p role="alert" className="font-semibold text-danger">
            {stop.isError ? errorMessage(stop.error) : t('settings.unsubInvalid')}
          </p>
        ) : stop.isSuccess ? (
          <>
            <p className="font-semibold text-success">{t('settings.unsubDone')}</p>
            <p className="text-sm text-fg-muted">{withLink(t('settings.unsubAgain', { link: LINK }), settingsLink)}</p>
          </>
        ) : (
          <>
            <p>{t('settings.unsubAsk')}</p>
            <p className="rounded-lg bg-surface-subtle p-3 font-medium">{scopeLabel(scope)}</p>
            <p className="text-sm text-fg-muted">{t('settings.unsubStillInApp')}</p>
            <Button loading={stop.isPending} onClick={() => stop.mutate()}>
              {t('settings.unsubscribe')}
            </Button>
          </>
        )}
        <Link to={paths.home.getHref()} className="text-sm text-link underline">
          {t('settings.goToSite', { name: instance.name })}
        </Link>
      </div>
    </AuthCard>
  );
}
