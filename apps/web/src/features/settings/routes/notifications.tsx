import toast from 'react-hot-toast';
import { mailableTypes, type EmailMode, type MailableType } from '@glimpse/contract';
import { Spinner } from '@/components/ui/spinner.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/settings-api.ts';
import { SettingsHeader } from '../components/settings-header.tsx';
import { useOwnUser } from '../components/use-own-user.ts';
import { mailTypeLabel } from '../components/mail-labels.ts';
import { t } from '@/lib/i18n/i18n.ts';

const MODES: { mode: EmailMode; label: () => string }[] = [
  { mode: 'off', label: () => t('settings.mailOff') },
  { mode: 'instant', label: () => t('settings.mailInstant') },
  { mode: 'digest', label: () => t('settings.mailDigest') },
];

/** Which notifications are also mailed, per type: off, one mail each, or one daily digest. Saved on each change. */
export default function NotificationSettingsRoute() {
  useDocumentTitle(t('settings.emailNotifications'));
  const user = useOwnUser();
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();

  const choose = (type: MailableType, mode: EmailMode) =>
    save.mutate({ [type]: mode }, { onSuccess: () => toast.success(t('settings.notifSaved')), onError: (err) => toast.error(errorMessage(err)) });

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <SettingsHeader userName={user.userName} />
      <section aria-labelledby="mail-settings" className="max-w-xl py-6">
        <h2 id="mail-settings" className="mb-1 text-lg font-semibold">
          {t('settings.emailNotifications')}
        </h2>
        <p className="mb-4 text-sm text-fg-muted [overflow-wrap:anywhere]">
          {t('settings.emailNotificationsText', { email: user.email })}
        </p>
        {settings.isPending ? (
          <Spinner label={t('settings.loadingNotif')} />
        ) : settings.isError ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(settings.error)}
          </p>
        ) : (
          <div className="flex flex-col divide-y divide-line rounded-xl border border-line">
            {mailableTypes.map((type) => (
              <fieldset key={type} className="p-3">
                <legend className="text-sm font-medium">{mailTypeLabel(type)}</legend>
                <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
                  {MODES.map(({ mode, label }) => (
                    <label key={mode} className="flex items-center gap-1.5 text-sm">
                      <input
                        type="radio"
                        name={`mail-${type}`}
                        value={mode}
                        checked={settings.data[type] === mode}
                        disabled={save.isPending}
                        onChange={() => choose(type, mode)}
                        className="size-4"
                      />
                      {label()}
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
