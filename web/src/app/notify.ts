import { notifications } from '@mantine/notifications';
import { i18n } from './i18n';

/** Toasts with catalogue keys: every user-visible text goes through the translation. */
export function notifySuccess(key: string, params?: Record<string, unknown>): void {
  notifications.show({ color: 'teal', message: i18n.t(key, params) });
}

/** `id`: one toast of that kind at a time — a new one replaces it, and `dismissNotification(id)` takes it away. */
export function notifyError(key: string, params?: Record<string, unknown>, id?: string): void {
  if (id) notifications.hide(id);
  notifications.show({ id, color: 'red', message: i18n.t(key, params) });
}

export function dismissNotification(id: string): void {
  notifications.hide(id);
}

/**
 * A toast with a spinner while long work runs (an export of thousands of rows); the returned
 * function takes it away. Without it a click in a menu that closes would show nothing for seconds.
 */
export function notifyWorking(key: string, params?: Record<string, unknown>): () => void {
  const id = notifications.show({
    loading: true,
    autoClose: false,
    withCloseButton: false,
    message: i18n.t(key, params),
  });
  return () => notifications.hide(id);
}
