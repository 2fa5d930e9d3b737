import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { sendAhead, type AheadState, type EarlyUpload } from '../api/early-upload.ts';

const noSubscribe = () => () => undefined;
const noState = () => null;

/**
 * The upload form's early upload: `start(file)` begins sending it (giving up the one before),
 * `abandon()` gives it up; one not handed over (`handOver`, on submit) is given up when the form goes.
 */
export function useSendAhead() {
  const [upload, setUpload] = useState<EarlyUpload | null>(null);
  // The one to give up when the form unmounts; null once handed over.
  const current = useRef<EarlyUpload | null>(null);
  useEffect(() => () => current.current?.abandon(), []);
  const state: AheadState | null = useSyncExternalStore(upload?.subscribe ?? noSubscribe, upload?.state ?? noState);

  return {
    upload,
    state,
    start(file: File) {
      current.current?.abandon();
      const next = sendAhead(file);
      current.current = next;
      setUpload(next);
    },
    abandon() {
      current.current?.abandon();
      current.current = null;
      setUpload(null);
    },
    /** The dashboard's upload job finishes it now. */
    handOver() {
      current.current = null;
    },
  };
}
