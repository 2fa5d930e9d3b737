import { useState } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from './api-client.ts';

/**
 * Delete behind a confirmation dialog: `ask(item)` opens it, `confirm()` deletes, toasts the server's
 * message ('{Name} deleted successfully'), closes and refreshes; a failure toasts the server's message.
 */
export function useConfirmedDelete<T extends { _id: string }>(
  remove: (id: string) => Promise<{ message: string }>,
  fallbackMessage: string,
  refresh: () => Promise<unknown>,
) {
  const [pending, setPending] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const { message } = await remove(pending._id);
      toast.success(message || fallbackMessage);
      setPending(null);
      await refresh();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { pending, busy, ask: setPending, cancel: () => setPending(null), confirm };
}
