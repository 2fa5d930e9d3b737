import { useEffect, useRef } from 'react';
import { Spinner } from './spinner.tsx';
import { t } from '@/lib/i18n/i18n.ts';

/**
 * Calls onVisible when it scrolls into view (IntersectionObserver), to load the next
 * page of an infinite list. Renders a spinner while loading and nothing at the end.
 */
export function InfiniteSentinel({ hasMore, loading, onVisible }: { hasMore: boolean; loading: boolean; onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const onVisibleRef = useRef(onVisible);
  useEffect(() => {
    onVisibleRef.current = onVisible;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || !hasMore || loading || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onVisibleRef.current();
    }, { rootMargin: '400px' });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, loading]);
  if (!hasMore && !loading) return null;
  return <div ref={ref}>{loading && <Spinner label={t('common.loadingMore')} />}</div>;
}
