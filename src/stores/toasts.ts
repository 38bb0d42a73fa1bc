import { proxy } from 'valtio';

export type ToastSeverity = 'success' | 'info' | 'warn' | 'error';

/** Spec §9 toast lifetimes in milliseconds. */
export const toastLife = {
  /** Validation, success and ordinary error toasts. */
  standard: 3000,
  passwordError: 4000,
  /** Login failure and the video delete summary. */
  long: 5000,
} as const;

export interface ToastMessage {
  id: number;
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  life: number;
}

export const toasts = proxy<{ items: ToastMessage[] }>({ items: [] });

let nextId = 1;

export function showToast(message: Omit<ToastMessage, 'id' | 'life'> & { life?: number }): void {
  toasts.items.push({ life: toastLife.standard, ...message, id: nextId++ });
}

export function dismissToast(id: number): void {
  toasts.items = toasts.items.filter((item) => item.id !== id);
}

/** The spec's generic outcome toasts: 'Success' / 'Error' / 'Warning' titles with its detail text. */
export const toastSuccess = (detail: string, life: number = toastLife.standard) =>
  showToast({ severity: 'success', summary: 'Success', detail, life });
export const toastError = (detail: string) =>
  showToast({ severity: 'error', summary: 'Error', detail });
export const toastWarning = (detail: string) =>
  showToast({ severity: 'warn', summary: 'Warning', detail });
export const toastComingSoon = (feature: string) =>
  showToast({
    severity: 'info',
    summary: 'Coming soon',
    detail: `${feature} functionality coming soon`,
  });
