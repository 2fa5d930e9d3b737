import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';

/** Unknown paths, channel and user index routes (spec §2). */
export function NotAvailable() {
  return (
    <section className="flex flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-xl font-semibold">This page isn't available. Sorry about that.</h1>
      <p className="text-sm text-zinc-600">Try searching for something else.</p>
      <Link to={paths.home.getHref()} className="rounded-full bg-blue-600 px-5 py-2 text-sm font-medium text-white hover:bg-blue-700">
        Go to home
      </Link>
    </section>
  );
}
