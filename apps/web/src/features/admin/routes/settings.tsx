import { registrationModes, type InstanceSettings, type RegistrationMode } from '@glimpse/contract';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { useId, useState, type ReactNode } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Markdown } from '@/components/ui/markdown.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { describedBy, FieldFrame, fieldBorder, TextArea, TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { settingsQueryOptions, useSaveSettings } from '../api/settings-api.ts';
import { toFormValues, toPatch, UNITS, type SettingsField, type SettingsFormValues } from '../settings-form.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import type { MessageKey } from '@/lib/i18n/en.ts';
import { t } from '@/lib/i18n/i18n.ts';

const modeText: Record<RegistrationMode, { label: MessageKey; text: MessageKey }> = {
  open: { label: 'admin.modeOpen', text: 'admin.modeOpenText' },
  approval: { label: 'admin.modeApproval', text: 'admin.modeApprovalText' },
  closed: { label: 'admin.modeClosed', text: 'admin.modeClosedText' },
};

const inputClass = 'h-10 rounded-lg border bg-surface px-3 text-sm';

/** The resolver checks the values with the contract schema (settings-form.ts); the submit handler gets the PATCH body. */
const resolver: Resolver<SettingsFormValues> = async (values) => {
  const result = toPatch(values);
  if ('patch' in result) return { values: result.patch as never, errors: {} };
  const errors = Object.fromEntries(Object.entries(result.errors).map(([k, message]) => [k, { type: 'validate', message }]));
  return { values: {}, errors };
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl border border-line p-4">
      <legend className="px-1 text-base font-semibold">{title}</legend>
      {children}
    </fieldset>
  );
}

function SettingsForm({ settings }: { settings: InstanceSettings }) {
  const save = useSaveSettings();
  const form = useForm<SettingsFormValues>({ resolver, defaultValues: toFormValues(settings) });
  const { register, formState, handleSubmit, control } = form;
  const error = (f: SettingsField) => formState.errors[f]?.message;
  const about = useWatch({ control, name: 'about' });
  const [preview, setPreview] = useState(false);
  const ids = { quota: useId(), daily: useId(), minutes: useId() };

  const submit = handleSubmit(async (patch) => {
    try {
      const res = await save.mutateAsync(patch as never);
      form.reset(toFormValues(res.data));
      toast.success(res.message);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  });

  const noLimit = t('admin.noLimitHelp');
  const quota = (field: 'quota' | 'dailyQuota', unitField: 'quotaUnit' | 'dailyQuotaUnit', id: string, label: string) => (
    <FieldFrame id={id} label={label} help={noLimit} error={error(field)}>
      <div className="flex gap-2">
        <input
          id={id}
          inputMode="decimal"
          placeholder={t('admin.noLimit')}
          aria-describedby={describedBy(id, noLimit, error(field))}
          aria-invalid={error(field) ? true : undefined}
          className={clsx(inputClass, 'min-w-0 flex-1', fieldBorder(error(field)))}
          {...register(field)}
        />
        <select aria-label={t('admin.unitOf', { label })} className={clsx(inputClass, fieldBorder())} {...register(unitField)}>
          {Object.keys(UNITS).map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
      </div>
    </FieldFrame>
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label={t('admin.instanceSettings')}>
      <Section title={t('admin.instance')}>
        <TextField label={t('admin.instanceName')} {...register('name')} error={error('name')} />
        <TextArea label={t('admin.description')} help={t('admin.descriptionHelp')} error={error('description')} {...register('description')} />
        <TextArea
          label={t('admin.aboutPage')}
          help={t('admin.aboutHelp')}
          error={error('about')}
          rows={10}
          mono
          {...register('about')}
        />
        <div className="flex flex-col gap-2">
          <Button variant="secondary" size="sm" className="self-start" aria-pressed={preview} onClick={() => setPreview((v) => !v)}>
            {preview ? t('admin.hidePreview') : t('admin.showPreview')}
          </Button>
          {preview && (
            <section aria-label={t('admin.aboutPreview')} className="rounded-lg border border-dashed border-line-strong p-3">
              {about.trim() ? <Markdown source={about} /> : <p className="text-sm text-fg-muted">{t('admin.aboutEmpty')}</p>}
            </section>
          )}
        </div>
      </Section>

      <Section title={t('admin.registration')}>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-fg-muted">{t('admin.whoCanRegister')}</legend>
          {registrationModes.map((mode) => (
            <label key={mode} className="flex cursor-pointer items-start gap-3 rounded-lg border border-line p-3 has-[:checked]:border-accent has-[:checked]:bg-accent-subtle">
              <input type="radio" value={mode} className="mt-1" {...register('registrationMode')} />
              <span className="flex flex-col">
                <span className="text-sm font-medium">{t(modeText[mode].label)}</span>
                <span className="text-sm text-fg-muted">{t(modeText[mode].text)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="grid gap-4 md:grid-cols-2">
          <TextArea
            label={t('admin.allowedDomains')}
            help={t('admin.allowedDomainsHelp')}
            error={error('signupAllowedDomains')}
            rows={4}
            {...register('signupAllowedDomains')}
          />
          <TextArea
            label={t('admin.blockedDomains')}
            help={t('admin.blockedDomainsHelp')}
            error={error('signupBlockedDomains')}
            rows={4}
            {...register('signupBlockedDomains')}
          />
        </div>
      </Section>

      <Section title={t('admin.uploadsComments')}>
        <div className="grid gap-4 md:grid-cols-2">
          {quota('quota', 'quotaUnit', ids.quota, t('admin.storageQuota'))}
          {quota('dailyQuota', 'dailyQuotaUnit', ids.daily, t('admin.dailyQuota'))}
        </div>
        <TextField id={ids.minutes} label={t('admin.maxMinutes')} inputMode="numeric" className="md:max-w-xs" {...register('maxVideoMinutes')} error={error('maxVideoMinutes')} />
        <label className="flex items-center gap-3 text-sm">
          <input type="checkbox" className="size-4" {...register('commentsEnabledByDefault')} />
          {t('admin.commentsDefault')}
        </label>
      </Section>

      <Section title={t('admin.lives')}>
        <label className="flex items-center gap-3 text-sm">
          <input type="checkbox" className="size-4" {...register('livesEnabled')} />
          {t('admin.livesEnabled')}
        </label>
        <div className="grid gap-4 md:grid-cols-3">
          <TextField label={t('admin.maxLivesPerInstance')} inputMode="numeric" {...register('maxLivesPerInstance')} error={error('maxLivesPerInstance')} />
          <TextField label={t('admin.maxLivesPerUser')} inputMode="numeric" {...register('maxLivesPerUser')} error={error('maxLivesPerUser')} />
          <TextField label={t('admin.maxLiveMinutes')} inputMode="numeric" {...register('maxLiveMinutes')} error={error('maxLiveMinutes')} />
        </div>
      </Section>

      <Button type="submit" className="self-start" loading={formState.isSubmitting}>
        {t('admin.saveSettings')}
      </Button>
    </form>
  );
}

/** Instance settings (admins; the tab is hidden from moderators and the server refuses them). */
export default function AdminSettings() {
  useDocumentTitle(t('admin.instanceSettings'));
  const settings = useQuery(settingsQueryOptions);
  if (settings.isPending) return <Spinner label={t('admin.loadingSettings')} />;
  if (settings.isError) return <EmptyState kind="moderation" title={t('admin.settingsFailed')} text={errorMessage(settings.error)} />;
  return <SettingsForm settings={settings.data} />;
}
