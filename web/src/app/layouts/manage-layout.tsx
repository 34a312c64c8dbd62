import { AppShell, Box, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuildingCommunity, IconLogout, IconUsers } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { manageApi, setManageToken } from '../../api/manage';
import { WorkingButton } from '../../components/working-button';
import { BreadcrumbBar } from '../../features/layout/breadcrumb-bar';
import { useRouteTitle } from '../document-title';
import { useManageSession } from '../manage-session';
import { notifyError } from '../notify';
import { mainTarget, SkipLink } from './skip-link';

const LINKS = [
  { to: '/manage', label: 'manage.subjects', icon: IconBuildingCommunity, match: /^\/manage(\/subject.*)?$/ },
  { to: '/manage/admin-user', label: 'manage.adminUsers', icon: IconUsers, match: /^\/manage\/admin-user/ },
];

/** The provider operators' frame: its own menu, operator name and logout. */
export function ManageLayout() {
  const { t } = useTranslation();
  const session = useManageSession();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure(false);
  useRouteTitle('manage.subjects');
  const logout = useMutation({
    mutationFn: manageApi.logout,
    onSuccess: () => {
      setManageToken(null);
      queryClient.removeQueries({ queryKey: ['manage'] });
      navigate('/manage/login');
    },
    onError: () => notifyError('basics.logoutError'),
  });

  return (
    <>
      <SkipLink />
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('layout.toggleMenu')} />
              <Text component={Link} to="/manage" fw={800} size="lg" c="inherit" td="none">
                Accredo · {t('manage.title')}
              </Text>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" visibleFrom="sm">
                {session.operator.name || session.operator.email}
              </Text>
              <WorkingButton
                variant="default"
                size="xs"
                leftSection={<IconLogout size={14} />}
                busy={logout.isPending}
                onClick={() => logout.mutate()}
              >
                {t('basics.logout')}
              </WorkingButton>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          <Box component="nav" aria-label={t('layout.mainMenu')}>
            {LINKS.map((link) => {
              const active = link.match.test(pathname);
              return (
                <NavLink
                  key={link.to}
                  component={Link}
                  to={link.to}
                  label={t(link.label)}
                  leftSection={<link.icon size={18} stroke={1.6} />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  onClick={close}
                />
              );
            })}
          </Box>
        </AppShell.Navbar>
        <AppShell.Main {...mainTarget}>
          <BreadcrumbBar homeLabel="manage.subjects" homePath="/manage" />
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </>
  );
}
