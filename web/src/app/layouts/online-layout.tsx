import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';

/** The frame of the public online registration (spec §2): outside the admin session, full width on phones. */
export function OnlineLayout() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-light)" py={{ base: 'sm', sm: 'xl' }}>
      <Container size="lg" px={{ base: 'xs', sm: 'md' }}>
        <Outlet />
      </Container>
    </Box>
  );
}
