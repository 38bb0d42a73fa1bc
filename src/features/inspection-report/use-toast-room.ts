import { type RefObject, useEffect } from 'react';

/**
 * While toasts show at the bottom of the window (a phone's full width, the report's bottom left on
 * a desktop), the page gets as much room below its end (`--toast-room`), and a reader scrolled to
 * the very end stays there: the last flag or row rises above the toasts instead of under them.
 */
export function useToastRoom(page: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const toasts = document.querySelector('.toast-viewport');
    const target = page.current;
    if (!toasts || !target) return;
    let room = 0;
    const fit = () => {
      const box = toasts.getBoundingClientRect();
      // Toasts at the top (a desktop's, under a dialog) cover no end of the page.
      const atBottom = box.height > 0 && innerHeight - box.bottom < box.top;
      const next = atBottom ? Math.ceil(innerHeight - box.top) : 0;
      if (next === room) return;
      const scroller = document.scrollingElement ?? document.documentElement;
      const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
      room = next;
      target.style.setProperty('--toast-room', `${room}px`);
      if (atEnd) scroller.scrollTop = scroller.scrollHeight;
    };
    const observer = new ResizeObserver(fit);
    observer.observe(toasts);
    return () => {
      observer.disconnect();
      target.style.removeProperty('--toast-room');
    };
  }, [page]);
}
