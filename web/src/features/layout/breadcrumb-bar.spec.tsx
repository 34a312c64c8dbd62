import { screen } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes, t } from '../../testing/render';
import { BreadcrumbBar } from './breadcrumb-bar';

const frame = (homeLabel: string, homePath: string, children: RouteObject[]): RouteObject[] => [
  {
    path: homePath,
    element: (
      <>
        <BreadcrumbBar homeLabel={homeLabel} homePath={homePath} />
        <Outlet />
      </>
    ),
    children,
  },
];

const crumbs = () =>
  [
    ...screen.getByRole('navigation', { name: t('layout.breadcrumb') }).querySelectorAll('a, [aria-current="page"]'),
  ].map((el) => el.textContent);

describe('BreadcrumbBar', () => {
  it('says a section once when the home page or its index route is named like it', async () => {
    renderRoutes(
      frame('manage.subjects', '/manage', [
        {
          path: 'subject',
          handle: { crumb: 'manage.subjects' },
          element: <Outlet />,
          children: [{ path: 'create', handle: { crumb: 'manage.subjectCreate' }, element: <p>form</p> }],
        },
      ]),
      ['/manage/subject/create'],
    );
    await screen.findByText('form');
    expect(crumbs()).toEqual([t('manage.subjects'), t('manage.subjectCreate')]);
  });

  it('keeps the section, not its index route at the same path', async () => {
    renderRoutes(
      frame('menu.dashboard', '/', [
        {
          path: 'device',
          handle: { crumb: 'menu.devices' },
          element: <Outlet />,
          children: [{ index: true, handle: { crumb: 'menu.deviceList' }, element: <p>list</p> }],
        },
      ]),
      ['/device'],
    );
    await screen.findByText('list');
    expect(crumbs()).toEqual([t('menu.dashboard'), t('menu.devices')]);
    expect(screen.getByText(t('menu.devices'))).toHaveAttribute('aria-current', 'page');
  });
});
