import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from './i18n';
import { LayoutSettingsProvider, useLayoutSettings } from './layout-settings';
import { PortalRegion } from './portal-region';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, localTheme } from './theme';

let loadedToasts: ComponentType | null = null;
const loadToasts = () =>
  import('./toasts').then((module) => {
    loadedToasts = module.default;
    return module;
  });
const Toasts = lazy(loadToasts);

/** Loads the toasts' container ahead (the web tests do, so that a toast shows in the same render). */
export function preloadToasts(): Promise<unknown> {
  return loadToasts();
}

/**
 * The toasts' container, loaded with the first toast (issue 15, a light first load): a page that
 * shows none does not download it. Toasts shown before it is there wait in the store and appear then.
 */
function LazyToasts() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  const Loaded = loadedToasts;
  return Loaded ? (
    <Loaded />
  ) : (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}

function ThemedApp({ children, env }: { children: ReactNode; env?: 'default' | 'test' }) {
  const { settings } = useLayoutSettings();
  const { t } = useTranslation();
  const closeLabel = t('basics.close');
  const clearLabel = t('a11y.clear');
  const passwordLabel = t('basics.togglePassword');
  const theme = useMemo(
    () => localTheme(closeLabel, clearLabel, passwordLabel),
    [closeLabel, clearLabel, passwordLabel],
  );
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme={settings.background}
      env={env}
    >
      <LazyToasts />
      {children}
      <PortalRegion />
    </MantineProvider>
  );
}

/**
 * Everything a screen needs around it: theme, toasts, server state and translations. The modals'
 * provider (confirmations) is around the signed-in parts only (private-routes.tsx).
 */
export function AppProviders({
  children,
  queryClient,
  env,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns Mantine's transitions and portals off (component tests) */
  env?: 'default' | 'test';
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <LayoutSettingsProvider>
          <ThemedApp env={env}>{children}</ThemedApp>
        </LayoutSettingsProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
