import { Center, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useRouteTitle } from '../document-title';
import { mainTarget, SkipLink } from './skip-link';

/** The tab's title of each page of this frame, by its path. */
const TITLES: [RegExp, string][] = [
  [/^\/login/, 'basics.loginTitle'],
  [/^\/forgot-password\//, 'basics.setNewPasswordTitle'],
  [/^\/verify\//, 'basics.verifyTitle'],
  [/^\/manage\/login/, 'manage.title'],
];

/** The blank frame of the login and password-link pages: the page's main landmark. */
export function PublicLayout() {
  const { pathname } = useLocation();
  useRouteTitle(TITLES.find(([path]) => path.test(pathname))?.[1]);
  return (
    <>
      <SkipLink />
      <Center component="main" {...mainTarget} mih="100vh" p="md" bg="var(--mantine-color-gray-light)">
        <Outlet />
      </Center>
    </>
  );
}

/** A centred card with a title, used by every public form. */
export function PublicCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" p="xl" w="100%" maw={420} radius="md">
      <Stack gap="md">
        <Title order={1} size="h2" ta="center">
          Accredo
        </Title>
        <Title order={2} size="h4" ta="center" fw={500}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
