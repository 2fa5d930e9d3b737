import { useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/lib/api-client.ts';
import { uploadInChunks, uploadPercent } from '../api/chunked-upload.ts';
import type { UploadRequest } from './upload-form-dialog.tsx';

export interface UploadJob {
  request: UploadRequest;
  percent: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

/** Runs one chunked upload at a time and keeps its progress for the dialog. */
export function useUploadJob(onUploaded: () => void) {
  const [job, setJob] = useState<UploadJob | null>(null);

  const start = async (request: UploadRequest) => {
    setJob({ request, percent: 0, state: 'uploading' });
    try {
      await uploadInChunks(
        { file: request.file, title: request.title, description: request.description, thumbnail: request.thumbnail, fields: request.privacy },
        { onProgress: (loaded, total) => setJob((j) => j && { ...j, percent: uploadPercent(loaded, total, false) }) },
      );
      setJob((j) => j && { ...j, percent: 100, state: 'done' });
      toast.success('Video uploaded successfully');
      onUploaded();
    } catch (err) {
      const message = errorMessage(err);
      setJob((j) => j && { ...j, state: 'failed', error: message });
      toast.error('Failed to upload video');
      toast.error(message);
    }
  };

  return { job, start, clear: () => setJob(null) };
}
