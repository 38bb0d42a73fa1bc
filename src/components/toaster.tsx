import { Toast } from 'radix-ui';
import { useSnapshot } from 'valtio';
import { dismissToast, toasts } from '../stores/toasts.ts';

/** Renders the toast queue (stores/toasts.ts) with Radix Toast, each with its own lifetime. */
export function Toaster() {
  const { items } = useSnapshot(toasts);
  return (
    <Toast.Provider swipeDirection="right">
      {items.map((item) => (
        <Toast.Root
          key={item.id}
          className={`toast toast-${item.severity}`}
          duration={item.life}
          type={item.severity === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
        >
          <Toast.Title className="toast-title">{item.summary}</Toast.Title>
          {item.detail && (
            <Toast.Description className="toast-detail wrap-anywhere">
              {item.detail}
            </Toast.Description>
          )}
          <Toast.Close className="btn btn-ghost btn-icon toast-close" aria-label="Dismiss">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" />
    </Toast.Provider>
  );
}
