import { notifications } from '@mantine/notifications';
import { i18n } from './i18n';

/** Toasts with catalogue keys: every user-visible text goes through the translation. */
export function notifySuccess(key: string, params?: Record<string, unknown>): void {
  notifications.show({ color: 'teal', message: i18n.t(key, params) });
}

export function notifyError(key: string, params?: Record<string, unknown>): void {
  notifications.show({ color: 'red', message: i18n.t(key, params) });
}
