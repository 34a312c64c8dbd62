import { Center, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';

/** The blank frame of the login and password-link pages. */
export function PublicLayout() {
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-light)">
      <Outlet />
    </Center>
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
