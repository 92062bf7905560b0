import { useSyncExternalStore } from 'react';

export type ToastVariant = 'success' | 'warning' | 'error' | 'info';
/** Durations from the spec: short 3000, normal 5000, long 8000 ms. */
export const TOAST_DURATIONS = { short: 3000, normal: 5000, long: 8000 } as const;

export interface Toast {
  id: number;
  variant: ToastVariant;
  title: string;
  message?: string;
  /** When it was added (ms since epoch) and how long it stays. */
  time: number;
  timeout: number;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function dismissToast(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/** Clears every toast (the component tests start each file with none). */
export function dismissAllToasts() {
  toasts = [];
  emit();
}

/** Shows a toast; it is removed when its timeout expires. */
export function toast(
  variant: ToastVariant,
  title: string,
  message?: string,
  duration: keyof typeof TOAST_DURATIONS = 'normal',
) {
  const t: Toast = {
    id: nextId++,
    variant,
    title,
    message,
    time: Date.now(),
    timeout: TOAST_DURATIONS[duration],
  };
  toasts = [...toasts, t];
  emit();
  setTimeout(() => dismissToast(t.id), t.timeout);
  return t.id;
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
    () => toasts,
  );
}
