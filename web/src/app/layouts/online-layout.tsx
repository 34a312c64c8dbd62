import { Box, Container } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { useRouteTitle } from '../document-title';
import { mainTarget, SkipLink } from './skip-link';
import './online-layout.css';

/**
 * The frame of the public online registration (spec §2): outside the admin session, full width on
 * phones; the page's main landmark, with the touch sizes of online-layout.css.
 */
export function OnlineLayout() {
  // the public form names its event itself (useDocumentTitle); the preview page is "the badge's page"
  const { pathname } = useLocation();
  useRouteTitle(pathname.startsWith('/preview/') ? 'preview.defaultTitle' : undefined);
  return (
    <>
      <SkipLink />
      <Box
        component="main"
        {...mainTarget}
        className="online-page"
        mih="100vh"
        bg="var(--mantine-color-gray-light)"
        py={{ base: 'sm', sm: 'xl' }}
      >
        <Container size="md" px={{ base: 'xs', sm: 'md' }}>
          <Outlet />
        </Container>
      </Box>
    </>
  );
}
