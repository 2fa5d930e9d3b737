import clsx from 'clsx';
import { Camera, ImagePlus } from 'lucide-react';
import { useRef } from 'react';
import toast from 'react-hot-toast';
import { fileProblem, IMAGE_ACCEPT, useUploadLimits } from './upload-limits.ts';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * A button opening the file picker for one png/jpeg image within the server's image limit
 * (spec §5); a bad file toasts its problem. `iconOnly` is the round camera button of the
 * settings header.
 */
export function ImagePickButton({
  onPick,
  label,
  iconOnly,
  limitMb,
}: {
  onPick: (file: File) => void;
  label?: string;
  iconOnly?: boolean;
  /** Defaults to the server's image limit. */
  limitMb?: number;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { imageMb } = useUploadLimits();
  const text = label ?? t('image.add');
  return (
    <>
      {/* Hidden: the button below is the one control assistive tech and keyboards get. */}
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        hidden
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          const problem = fileProblem(file, 'image', limitMb ?? imageMb);
          if (problem) toast.error(problem);
          else onPick(file);
        }}
      />
      <button
        type="button"
        onClick={() => input.current?.click()}
        aria-label={iconOnly ? text : undefined}
        title={iconOnly ? text : undefined}
        className={clsx(
          'flex items-center gap-1.5 rounded-full text-sm font-medium',
          iconOnly ? 'size-8 justify-center border border-line bg-surface text-fg shadow hover:bg-surface-subtle' : 'h-9 whitespace-nowrap px-3 text-link hover:bg-accent-subtle',
        )}
      >
        {iconOnly ? <Camera className="size-4" aria-hidden /> : <ImagePlus className="size-4" aria-hidden />}
        {!iconOnly && text}
      </button>
    </>
  );
}
