import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';
import type { RouteHandle } from '../../app/route-handle';

/** The breadcrumb bar of admin pages (spec §2 Layout), built from the routes' `handle.crumb`. */
export function BreadcrumbBar({
  homeLabel = 'menu.dashboard',
  homePath = '/',
}: {
  homeLabel?: string;
  homePath?: string;
}) {
  const { t } = useTranslation();
  const matches = useMatches();
  const crumbs = matches
    .filter((m) => (m.handle as RouteHandle | undefined)?.crumb && m.pathname !== homePath)
    .map((m) => ({ path: m.pathname.replace(/(.)\/$/, '$1'), label: t((m.handle as RouteHandle).crumb as string) }));
  // A crumb that repeats the one before it (a section and its index route at one path, or the home
  // page named like its first section: "Subjects / Subjects / New subject") is said once.
  const items = [{ path: homePath, label: t(homeLabel) }, ...crumbs].filter(
    (item, i, all) => i === 0 || (item.path !== all[i - 1].path && item.label !== all[i - 1].label),
  );
  return (
    <Breadcrumbs component="nav" aria-label={t('layout.breadcrumb')} mb="md" separatorMargin={6}>
      {items.map((item, index) =>
        index === items.length - 1 ? (
          <Text key={item.path} size="sm" aria-current="page">
            {item.label}
          </Text>
        ) : (
          <Anchor key={item.path} component={Link} to={item.path} size="sm">
            {item.label}
          </Anchor>
        ),
      )}
    </Breadcrumbs>
  );
}
