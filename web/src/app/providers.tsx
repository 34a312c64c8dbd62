import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from './i18n';
import { LayoutSettingsProvider, useLayoutSettings } from './layout-settings';
import { PortalRegion } from './portal-region';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, localTheme } from './theme';

function ThemedApp({ children, env }: { children: ReactNode; env?: 'default' | 'test' }) {
  const { settings } = useLayoutSettings();
  const { t } = useTranslation();
  const closeLabel = t('basics.close');
  const clearLabel = t('a11y.clear');
  const theme = useMemo(() => localTheme(closeLabel, clearLabel), [closeLabel, clearLabel]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme={settings.background}
      env={env}
    >
      <Notifications position="top-right" />
      <ModalsProvider>{children}</ModalsProvider>
      <PortalRegion />
    </MantineProvider>
  );
}

/** Everything a screen needs around it: theme, toasts, modals, server state and translations. */
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
