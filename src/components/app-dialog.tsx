import { Dialog } from 'radix-ui';
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useRef,
} from 'react';

export interface AppDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Spec §9 widths: '70vw', '450px', '500px', or the LC manager's 90vw up to 600px. */
  width: CSSProperties['width'];
  maxWidth?: CSSProperties['maxWidth'];
  /** Where focus goes on close when the opener is gone (e.g. a menu item that opened it). */
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** The × button's name, when the body has a 'Close' button of its own to tell it from. */
  closeLabel?: string;
  /** The id of an element in the body that describes the dialog (most dialogs have none). */
  describedBy?: string;
  children: ReactNode;
}

/**
 * A modal with a title and a close button. Radix traps focus inside; on close, focus goes back
 * to the control that opened it (Radix would only return it to a Dialog.Trigger, and ours are
 * plain buttons, cards' Edit buttons and menu items).
 */
export function AppDialog(props: AppDialogProps) {
  const {
    open,
    onOpenChange,
    title,
    width,
    maxWidth,
    returnFocusTo,
    closeLabel = 'Close',
    describedBy,
    children,
  } = props;
  const opener = useRef<HTMLElement | null>(null);
  // Read while rendering the opening: by the time effects run, focus is already inside.
  if (open && !opener.current && document.activeElement instanceof HTMLElement) {
    opener.current = document.activeElement;
  }

  const returnFocus = (event: Event) => {
    event.preventDefault();
    const target = opener.current?.isConnected ? opener.current : returnFocusTo?.current;
    opener.current = null;
    target?.focus();
  };

  // Radix gives Escape only to the topmost layer, and a toast shown over the dialog (a validation
  // warning) is one: the first Escape closed the toast and a second one was needed for the dialog.
  // Escape that no layer above the dialog kept for itself (an open popover prevents its default)
  // closes the dialog; when the dialog is on top, Radix has already closed it and prevented it.
  const closeOnEscape = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      onOpenChange(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          style={{ width, maxWidth: maxWidth ?? 'calc(100vw - 2rem)' }}
          aria-describedby={describedBy}
          onCloseAutoFocus={returnFocus}
          onKeyDown={closeOnEscape}
        >
          <header className="dialog-header">
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          </header>
          <div className="dialog-body">{children}</div>
          {/* After the body, so opening focuses the first field rather than Close. */}
          <Dialog.Close className="btn btn-ghost btn-icon dialog-close" aria-label={closeLabel}>
            ×
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
