/** Keys of the browser storage (spec §3 "client-side stored state"), in one place. */
export const STORAGE_KEYS = {
  adminToken: 'accredo.admin.token',
  manageToken: 'accredo.manage.token',
  /** the online registration token, one per channel: `accredo.online.token.<channelKey>` */
  onlineToken: 'accredo.online.token',
  currentAction: 'accredo.admin.action',
  userFilter: 'accredo.admin.userFilter',
  language: 'accredo.language',
  layout: 'accredo.layout',
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage may be disabled (private mode); the app still works for this page view.
  }
}

/** The admin session keys removed on logout and on any 401 (spec §7). */
export function clearAdminSession(): void {
  writeStorage(STORAGE_KEYS.adminToken, null);
  writeStorage(STORAGE_KEYS.currentAction, null);
  writeStorage(STORAGE_KEYS.userFilter, null);
}
