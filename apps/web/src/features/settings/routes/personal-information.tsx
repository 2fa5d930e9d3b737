import { zodResolver } from '@hookform/resolvers/zod';
import { updateMeBody, type UpdateMeBody } from '@glimpse/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { ImagePickButton } from '@/components/media/image-pick-button.tsx';
import { Button } from '@/components/ui/button.tsx';
import { TextField } from '@/components/ui/text-field.tsx';
import { useObjectUrl } from '@/components/ui/use-object-url.ts';
import { paths } from '@/config/paths.ts';
import { errorMessage, isApiError } from '@/lib/api-client.ts';
import { meQueryKey } from '@/lib/me.ts';
import { session, type StoredUser } from '@/lib/session.ts';
import { updateProfile, uploadProfileImage } from '../api/settings-api.ts';
import { SettingsHeader } from '../components/settings-header.tsx';
import { PrivateFeed } from '../components/private-feed.tsx';
import { YourData } from '../components/your-data.tsx';
import { useOwnUser } from '../components/use-own-user.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { t } from '@/lib/i18n/i18n.ts';

type FormValues = { fullName: string; userName: string };

/** Upload chosen images; spec §8: success toasts the server message, a failure is only logged. */
async function uploadImages(images: { avatar: File | null; cover: File | null }): Promise<boolean> {
  let any = false;
  const jobs: ['avatar' | 'cover-image', File | null, string][] = [
    ['avatar', images.avatar, t('settings.avatarUpdated')],
    ['cover-image', images.cover, t('settings.coverUpdated')],
  ];
  for (const [kind, file, fallback] of jobs) {
    if (!file) continue;
    try {
      const { message } = await uploadProfileImage(kind, file);
      toast.success(message || fallback);
      any = true;
    } catch (err) {
      console.warn(`Uploading the ${kind} failed`, err);
    }
  }
  return any;
}

export default function PersonalInformationRoute() {
  useDocumentTitle(t('settings.personalInfo'));
  const user = useOwnUser();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [avatar, setAvatar] = useState<File | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const avatarPreview = useObjectUrl(avatar);
  const coverPreview = useObjectUrl(cover);
  const defaults = { fullName: user.fullName, userName: user.userName };
  const { register, handleSubmit, reset, formState } = useForm<FormValues, unknown, UpdateMeBody>({
    resolver: zodResolver(updateMeBody),
    mode: 'onTouched',
    defaultValues: defaults,
  });

  const cancel = () => {
    reset(defaults);
    setAvatar(null);
    setCover(null);
  };

  const save = handleSubmit(async ({ fullName, userName }) => {
    if (avatar || cover) {
      const uploaded = await uploadImages({ avatar, cover });
      setAvatar(null);
      setCover(null);
      if (uploaded) {
        await qc.invalidateQueries({ queryKey: ['channel', user.userName] });
        // The top bar's avatar comes from the current-user query (it refreshes the stored user).
        await qc.invalidateQueries({ queryKey: meQueryKey });
      }
    }
    // Spec §5: nothing is sent when the trimmed names are unchanged.
    if (fullName === user.fullName && userName === user.userName) return;
    try {
      const { data } = await updateProfile({ _id: user.userId, fullName, userName });
      const next: StoredUser = { ...user, fullName: data.user?.fullName ?? fullName, userName: data.user?.userName ?? userName };
      toast.success(t('settings.changesUpdated'));
      reset({ fullName: next.fullName, userName: next.userName });
      const moved = next.userName !== user.userName;
      // A new handle moves the page first; user-layout then stores the renamed user.
      if (moved) navigate(paths.user.personalInformation.getHref(next.userName), { replace: true, state: { renamedUser: next } });
      else session.setUser(next);
      // The old handle now answers 404, and its header may still be on screen until the move
      // renders: asking again would send the page home. Every other channel query is refreshed.
      await qc.invalidateQueries({ queryKey: ['channel'], predicate: (q) => !moved || q.queryKey[1] !== user.userName });
    } catch (err) {
      if (isApiError(err, 409)) {
        toast.error(t('settings.userNameTaken'));
        const suggestion = err.data?.availableUserName;
        if (typeof suggestion === 'string') toast(t('settings.availableUserName', { suggestion }));
      } else toast.error(errorMessage(err));
    }
  });

  return (
    <div className="mx-auto max-w-6xl px-4 py-4">
      <SettingsHeader
        userName={user.userName}
        avatarSrc={avatarPreview}
        coverSrc={coverPreview}
        avatarControl={<ImagePickButton iconOnly label={t('settings.changeAvatar')} onPick={setAvatar} />}
        coverControl={<ImagePickButton iconOnly label={t('settings.changeCover')} onPick={setCover} />}
      />
      <section aria-labelledby="personal-info" className="max-w-2xl py-6">
        <h2 id="personal-info" className="text-lg font-semibold">
          {t('settings.personalInfo')}
        </h2>
        <p className="mb-4 text-sm text-fg-muted">{t('settings.personalInfoText')}</p>
        {(avatar || cover) && (
          <p role="status" className="mb-4 rounded-lg bg-accent-subtle p-2 text-sm text-link">
            {t('settings.newImagesSelected', { what: avatar && cover ? 'both' : avatar ? 'avatar' : 'cover' })}
          </p>
        )}
        <form onSubmit={save} noValidate className="flex flex-col gap-4 rounded-xl border border-line p-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label={t('settings.fullName')} autoComplete="name" {...register('fullName')} error={formState.errors.fullName?.message} />
            <TextField label={t('settings.userName')} autoComplete="username" {...register('userName')} error={formState.errors.userName?.message} />
          </div>
          <TextField label={t('settings.email')} type="email" value={user.email} readOnly disabled />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={cancel}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={formState.isSubmitting}>
              {t('settings.saveChanges')}
            </Button>
          </div>
        </form>
      </section>
      <PrivateFeed />
      <YourData />
    </div>
  );
}
