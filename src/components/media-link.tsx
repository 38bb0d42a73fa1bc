import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { downloadMediaLink, keepMediaCookieFresh } from '../lib/media-session.ts';

export interface MediaLinkProps {
  /** An /api file the server sends as a download (a report's PDF, a CSV export). */
  href: string;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * A download link to a file behind the media cookie. A plain click fetches the file
 * (lib/media-session.ts), so a refusal or a file cut off mid-way is said in the app instead of
 * saved as a broken file, and an ended session says so. While the link is shown the cookie is
 * kept fresh, so a link opened in a new tab or saved with the context menu works too.
 */
export function MediaLink({ href, className, 'aria-label': label, children }: MediaLinkProps) {
  useEffect(keepMediaCookieFresh, []);
  const busy = useRef(false);
  // The whole file arrives before the browser shows its download: until then the link is busy.
  const [fetching, setFetching] = useState(false);
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // Another tab or window, or a link some other handler took: the browser's own way.
    const plain =
      event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (!plain || event.defaultPrevented) return;
    event.preventDefault();
    // A second click while the first still fetches would download the file twice.
    if (busy.current) return;
    busy.current = true;
    setFetching(true);
    void downloadMediaLink(href).finally(() => {
      busy.current = false;
      setFetching(false);
    });
  };
  return (
    <>
      <a
        className={className}
        href={href}
        download
        aria-label={label}
        aria-busy={fetching || undefined}
        onClick={follow}
      >
        {children}
      </a>
      {/* Said, as aria-busy on a link is not (QA): the file arrives whole before it is saved. */}
      {fetching && (
        <span role="status" className="visually-hidden">
          Preparing the download…
        </span>
      )}
    </>
  );
}
