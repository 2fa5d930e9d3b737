import { useEffect } from 'react';
import { useInstance } from './public-config.ts';

/** "<title> - <instance name>" while the page shows; the instance name alone until the page knows its title. */
export function useDocumentTitle(title: string | null | undefined): void {
  const { name } = useInstance().instance;
  useEffect(() => {
    document.title = title ? `${title} - ${name}` : name;
  }, [title, name]);
}
