/**
 * Until the returned function is called, a reload or a closed tab first shows the browser's own
 * 'Leave site?' prompt (its words; a page cannot set them). For work the page has not kept yet.
 */
export function warnBeforeUnload(): () => void {
  const warn = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    // Older browsers prompt only when a return value is set.
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', warn);
  return () => window.removeEventListener('beforeunload', warn);
}
