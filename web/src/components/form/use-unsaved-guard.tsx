import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type BlockerFunction, useBlocker } from 'react-router';

/** Paths the app must always reach, dirty form or not (an ended session goes to a login page). */
const ALWAYS_ALLOWED = /\/login$/;

/**
 * Leaving a form with unsaved changes asks for confirmation (spec §2): in-app navigation through
 * the router's blocker and a modal, closing or reloading the tab through `beforeunload`.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const { t } = useTranslation();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const bypass = useRef(false);

  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (bypass.current) {
      bypass.current = false;
      return false;
    }
    if (!dirtyRef.current || ALWAYS_ALLOWED.test(nextLocation.pathname)) return false;
    return currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search;
  }, []);
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let settled = false;
    modals.openConfirmModal({
      title: t('basics.unsavedTitle'),
      children: <Text size="sm">{t('basics.unsavedText')}</Text>,
      labels: { confirm: t('basics.leave'), cancel: t('basics.stay') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        settled = true;
        blocker.proceed();
      },
      onCancel: () => {
        settled = true;
        blocker.reset();
      },
      onClose: () => {
        if (!settled) blocker.reset();
      },
    });
  }, [blocker, t]);

  useEffect(() => {
    if (!dirty) return;
    const listener = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', listener);
    return () => window.removeEventListener('beforeunload', listener);
  }, [dirty]);

  /** Lets the next navigation through, e.g. to the detail right after a create. */
  const allowNextNavigation = useCallback(() => {
    bypass.current = true;
  }, []);
  return { allowNextNavigation };
}
