import { ImagePlus } from 'lucide-react';
import { useId, useRef } from 'react';
import toast from 'react-hot-toast';
import { fileProblem, IMAGE_ACCEPT, useUploadLimits } from '@/components/media/upload-limits.ts';

/** A button opening the file picker for one png/jpeg image within the server's image limit. */
export function ImagePickButton({ onPick, label = 'Add image' }: { onPick: (file: File) => void; label?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const { imageMb } = useUploadLimits();
  return (
    <>
      <input
        id={id}
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          const problem = fileProblem(file, 'image', imageMb);
          if (problem) toast.error(problem);
          else onPick(file);
        }}
      />
      <button type="button" onClick={() => input.current?.click()} className="flex h-9 items-center gap-1.5 rounded-full px-3 text-sm font-medium text-blue-700 hover:bg-blue-50">
        <ImagePlus className="size-4" aria-hidden /> {label}
      </button>
    </>
  );
}
