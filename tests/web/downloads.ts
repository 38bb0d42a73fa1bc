/** A download the page started: the file's path, and the requests made before it. */
export interface StartedDownload {
  href: string;
  callsBefore: string[];
}

/**
 * Records each download link the browser would follow (a click on an `<a download>` that nothing
 * prevented), with the requests `calls` held at that moment, and stops it: the test page stays.
 * Listens last (window, bubbling), so a link whose own handler took the click is not counted.
 */
export function watchDownloads(calls: readonly string[]) {
  const downloads: StartedDownload[] = [];
  const onClick = (event: MouseEvent) => {
    const link = event.target;
    if (!(link instanceof HTMLAnchorElement) || !link.hasAttribute('download')) return;
    if (event.defaultPrevented) return;
    downloads.push({ href: new URL(link.href).pathname, callsBefore: [...calls] });
    event.preventDefault();
  };
  window.addEventListener('click', onClick);
  return { downloads, stop: () => window.removeEventListener('click', onClick) };
}
