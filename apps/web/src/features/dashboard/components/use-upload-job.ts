import { useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '@/lib/api-client.ts';
import { uploadInChunks, uploadPercent, type LastChunk } from '../api/chunked-upload.ts';
import type { UploadRequest } from './upload-form-dialog.tsx';

export interface UploadJob {
  request: UploadRequest;
  percent: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

/**
 * Runs one chunked upload at a time and keeps its progress for the dialog. An upload sent ahead
 * from the form (request.early) is finished with the form's fields, so the dialog starts where it
 * got to; a retry, or one whose sending ahead failed, starts again from what the server holds.
 */
export function useUploadJob(onUploaded: () => void) {
  const [job, setJob] = useState<UploadJob | null>(null);

  const start = async (request: UploadRequest) => {
    const last: LastChunk = { title: request.title, description: request.description, thumbnail: request.thumbnail, fields: request.privacy };
    const early = request.early?.usable() ? request.early : null;
    const ahead = early?.state();
    setJob({ request, percent: ahead ? uploadPercent(ahead.loaded, ahead.total, false) : 0, state: 'uploading' });
    const onProgress = (loaded: number, total: number) => setJob((j) => j && { ...j, percent: uploadPercent(loaded, total, false) });
    try {
      await (early ? early.finish(last, onProgress) : uploadInChunks({ file: request.file, last }, { onProgress }));
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
