import { Link, useLocation } from 'wouter';
import { paths } from '../config/paths.ts';
import { usePageHeading } from '../hooks/use-heading-focus.ts';

export const notFoundStrings = {
  title: 'Page not found',
  detail: (path: string) => `There is no page at ${path}.`,
  home: 'Go to the start page',
} as const;

/** What a URL outside the §2 route table shows: the page does not exist, and the way back. */
export function NotFoundPage() {
  const heading = usePageHeading('Not found');
  const [location] = useLocation();
  const s = notFoundStrings;
  return (
    <section className="page">
      <h1 ref={heading} tabIndex={-1}>
        {s.title}
      </h1>
      <p>{s.detail(location)}</p>
      <p>
        <Link href={paths.home} className="btn btn-primary">
          {s.home}
        </Link>
      </p>
    </section>
  );
}
