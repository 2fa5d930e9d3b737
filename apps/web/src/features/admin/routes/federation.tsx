import { X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { errorMessage } from '@/lib/api-client.ts';
import { t } from '@/lib/i18n/i18n.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useBlockChange, useFederationBlocks, useFederationPolicy, usePolicyChange } from '../api/federation-api.ts';

/** Federation (admins, issue #35): open federation or an allow-list, and blocked servers and accounts. */
export default function FederationRoute() {
  useDocumentTitle(t('admin.tabFederation'));
  const policy = useFederationPolicy();
  const blocks = useFederationBlocks();
  const changePolicy = usePolicyChange();
  const changeBlocks = useBlockChange();
  const fail = (err: unknown) => toast.error(errorMessage(err));

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="fed-mode" className="flex flex-col gap-3">
        <h2 id="fed-mode" className="text-lg font-semibold">
          {t('admin.fedModeTitle')}
        </h2>
        {policy.isPending ? (
          <Spinner label={t('admin.fedLoading')} />
        ) : policy.isError ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(policy.error)}
          </p>
        ) : (
          <>
            <fieldset className="flex flex-col gap-2">
              <legend className="sr-only">{t('admin.fedModeTitle')}</legend>
              {(['open', 'allowlist'] as const).map((mode) => (
                <label key={mode} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="fed-mode"
                    checked={policy.data.mode === mode}
                    onChange={() => changePolicy.mutate({ mode }, { onError: fail })}
                  />
                  {mode === 'open' ? t('admin.fedOpen') : t('admin.fedAllowlist')}
                </label>
              ))}
            </fieldset>
            <EntryList
              title={t('admin.fedAllowedTitle')}
              label={t('admin.fedHost')}
              empty={t('admin.fedNoAllowed')}
              entries={policy.data.allowedHosts}
              pending={changePolicy.isPending}
              onAdd={(host, done) => changePolicy.mutate({ allow: host }, { onSuccess: done, onError: fail })}
              onRemove={(host) => changePolicy.mutate({ disallow: host }, { onError: fail })}
            />
          </>
        )}
      </section>
      <section aria-labelledby="fed-blocks" className="flex flex-col gap-3">
        <h2 id="fed-blocks" className="text-lg font-semibold">
          {t('admin.fedBlocksTitle')}
        </h2>
        <p className="text-sm text-fg-muted">{t('admin.fedBlocksText')}</p>
        {blocks.isPending ? (
          <Spinner label={t('admin.fedLoading')} />
        ) : blocks.isError ? (
          <p role="alert" className="text-sm text-danger">
            {errorMessage(blocks.error)}
          </p>
        ) : (
          <EntryList
            title={t('admin.fedBlocksTitle')}
            label={t('admin.fedBlockTarget')}
            empty={t('admin.fedNoBlocks')}
            entries={blocks.data.map((b) => b.target)}
            pending={changeBlocks.isPending}
            onAdd={(target, done) => changeBlocks.mutate({ block: target }, { onSuccess: done, onError: fail })}
            onRemove={(target) => changeBlocks.mutate({ unblock: target }, { onError: fail })}
          />
        )}
      </section>
    </div>
  );
}

function EntryList(props: {
  title: string;
  label: string;
  empty: string;
  entries: string[];
  pending: boolean;
  onAdd: (value: string, done: () => void) => void;
  onRemove: (value: string) => void;
}) {
  const [value, setValue] = useState('');
  const add = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) props.onAdd(value.trim(), () => setValue(''));
  };
  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={add} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField label={props.label} value={value} maxLength={300} onChange={(e) => setValue(e.target.value)} />
        </div>
        <Button type="submit" loading={props.pending} disabled={!value.trim()}>
          {t('admin.add')}
        </Button>
      </form>
      {props.entries.length === 0 ? (
        <p className="text-sm text-fg-muted">{props.empty}</p>
      ) : (
        <ul aria-label={props.title} className="flex flex-wrap gap-2">
          {props.entries.map((entry) => (
            <li key={entry} className="flex items-center gap-1 rounded-full bg-surface-subtle py-1 pl-3 pr-1 text-sm [overflow-wrap:anywhere]">
              {entry}
              <button
                type="button"
                aria-label={t('admin.fedRemove', { value: entry })}
                onClick={() => props.onRemove(entry)}
                className="flex size-7 shrink-0 items-center justify-center rounded-full hover:bg-surface-strong"
              >
                <X className="size-4" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
