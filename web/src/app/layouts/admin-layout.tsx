import { ActionIcon, AppShell, Burger, Group, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustments } from '@tabler/icons-react';
import { type CSSProperties, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { hasRight } from '@accredo/domain';
import { Link, Outlet, useLocation } from 'react-router';
import { AdminMenu } from '../../features/layout/admin-menu';
import { BreadcrumbBar } from '../../features/layout/breadcrumb-bar';
import { ActionSwitcher } from '../../features/action/use-current-action';
import { LanguageSwitcher } from '../../features/layout/language-switcher';
import { LayoutSettingsDrawer } from '../../features/layout/layout-settings-drawer';
import { SubjectSwitcher } from '../../features/layout/subject-switcher';
import { UserMenu } from '../../features/layout/user-menu';
import { useAdminSession } from '../admin-session';
import { useRouteTitle } from '../document-title';
import { applyLanguage, storedLanguage } from '../i18n';
import { type Shade, useLayoutSettings } from '../layout-settings';
import { DIMMED } from '../theme';
import { mainTarget, SkipLink } from './skip-link';

/** A dark area inside a light page: Mantine's colour variables re-pointed for that element. */
export function areaStyle(shade: Shade, background: Shade): CSSProperties | undefined {
  if (shade === background || shade === 'light') return undefined;
  return {
    backgroundColor: 'var(--mantine-color-dark-7)',
    color: 'var(--mantine-color-dark-0)',
    ['--mantine-color-body' as string]: 'var(--mantine-color-dark-7)',
    ['--mantine-color-text' as string]: 'var(--mantine-color-dark-0)',
    ['--mantine-color-dimmed' as string]: DIMMED.dark,
    ['--mantine-color-default' as string]: 'var(--mantine-color-dark-6)',
    ['--mantine-color-default-hover' as string]: 'var(--mantine-color-dark-5)',
    ['--mantine-color-default-color' as string]: 'var(--mantine-color-white)',
    ['--mantine-color-default-border' as string]: 'var(--mantine-color-dark-4)',
    ['--mantine-color-gray-light-hover' as string]: 'var(--mantine-color-dark-5)',
  };
}

/** The admin application's frame (spec §2 Layout): top bar, left menu, breadcrumbs, settings drawer. */
export function AdminLayout() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const location = useLocation();
  const { settings, update } = useLayoutSettings();
  const [mobileOpened, mobile] = useDisclosure(false);
  const [settingsOpened, settingsDrawer] = useDisclosure(false);
  const multiLanguage = session.subject.multiLanguage;
  useRouteTitle('menu.dashboard');

  // Spec §1: without multi-language the UI is Czech; with it, the remembered choice applies.
  useEffect(() => {
    applyLanguage(multiLanguage ? storedLanguage() : 'cs', false);
  }, [multiLanguage]);

  const small = settings.smallSidebar;
  return (
    <>
      <SkipLink />
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: small ? 72 : 260, breakpoint: 'sm', collapsed: { mobile: !mobileOpened } }}
        padding="md"
      >
        <AppShell.Header style={areaStyle(settings.navbar, settings.background)}>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={mobileOpened}
                onClick={mobile.toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={t('layout.toggleMenu')}
              />
              <Burger
                opened={!small}
                onClick={() => update({ smallSidebar: !small })}
                visibleFrom="sm"
                size="sm"
                aria-label={t('layout.toggleMenu')}
              />
              <Text component={Link} to="/" fw={800} size="lg" c="inherit" td="none">
                Accredo
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap" align="flex-end">
              {/^\/accreditation(\/|$)/.test(location.pathname) && hasRight(session, 'action', 'get') && (
                <ActionSwitcher />
              )}
              {session.manageuser && <SubjectSwitcher session={session} />}
              {multiLanguage && <LanguageSwitcher />}
              <ActionIcon variant="default" size="lg" aria-label={t('layout.settings')} onClick={settingsDrawer.open}>
                <IconAdjustments size={20} />
              </ActionIcon>
              <UserMenu session={session} />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" style={areaStyle(settings.sidebar, settings.background)}>
          <AppShell.Section grow component={ScrollArea}>
            <AdminMenu holder={session} small={small} onNavigate={mobile.close} />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main {...mainTarget}>
          <BreadcrumbBar />
          <Outlet />
        </AppShell.Main>
        <LayoutSettingsDrawer opened={settingsOpened} onClose={settingsDrawer.close} />
      </AppShell>
    </>
  );
}
