import { hasAnyRight, type RightsHolder } from '@accredo/domain';
import { Box, NavLink, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ADMIN_MENU, type MenuLink, type MenuSection } from './menu';

interface VisibleLink extends MenuLink {
  allowed: boolean;
}

/** The entries a holder may see: hidden without the right, except the disable-only ones (spec §6). */
export function visibleMenu(holder: RightsHolder | null | undefined, menu: MenuSection[] = ADMIN_MENU) {
  return menu
    .map((section) => ({
      ...section,
      links: section.links
        .map((link): VisibleLink => ({ ...link, allowed: hasAnyRight(holder, link.rights) }))
        .filter((link) => link.allowed || link.disableWithoutRight),
    }))
    .filter((section) => section.links.length > 0);
}

/** The link matching the most of the current path is the active one. */
function activePath(pathname: string, links: MenuLink[]): string | undefined {
  const matching = links
    .map((link) => link.to)
    .filter((to) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`)));
  return matching.sort((a, b) => b.length - a.length)[0];
}

export interface AdminMenuProps {
  holder: RightsHolder | null | undefined;
  /** the small sidebar: icons only, names in tooltips */
  small?: boolean;
  onNavigate?: () => void;
}

export function AdminMenu({ holder, small = false, onNavigate }: AdminMenuProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const sections = visibleMenu(holder);
  const active = activePath(
    pathname,
    sections.flatMap((s) => s.links.filter((l) => l.allowed)),
  );

  return (
    <Box component="nav" aria-label={t('layout.mainMenu')}>
      <Stack gap={small ? 4 : 'xs'}>
        {sections.map((section) => (
          <Box key={section.label ?? section.links[0].to}>
            {section.label && !small && (
              <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pt="xs" pb={4}>
                {t(section.label)}
              </Text>
            )}
            {section.links.map((link) => {
              const Icon = link.icon;
              const label = t(link.label);
              if (!link.allowed) {
                return (
                  <Tooltip key={link.to} label={t('menu.notAllowed')} position="right" withArrow>
                    <Box>
                      <NavLink
                        component="a"
                        role="link"
                        aria-disabled="true"
                        aria-label={small ? label : undefined}
                        tabIndex={0}
                        disabled
                        label={small ? undefined : label}
                        leftSection={<Icon size={18} stroke={1.6} />}
                      />
                    </Box>
                  </Tooltip>
                );
              }
              const item = (
                <NavLink
                  key={link.to}
                  component={Link}
                  to={link.to}
                  onClick={onNavigate}
                  active={active === link.to}
                  aria-current={active === link.to ? 'page' : undefined}
                  aria-label={small ? label : undefined}
                  label={small ? undefined : label}
                  leftSection={<Icon size={18} stroke={1.6} />}
                />
              );
              return small ? (
                <Tooltip key={link.to} label={label} position="right" withArrow>
                  {item}
                </Tooltip>
              ) : (
                item
              );
            })}
          </Box>
        ))}
      </Stack>
    </Box>
  );
}
