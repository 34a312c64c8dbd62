import { Navigate, Outlet, type RouteObject } from 'react-router';
import { RequireRight } from '../../components/require-right';
import { MailTemplateDetailPage } from './mail-template-detail-page';
import { TemplateDetailPage } from './template-detail-page';
import { TemplateListPage } from './template-list-page';

/**
 * `/template` (the list with the mail and accreditation tabs), `/template/create|detail/:id`
 * (accreditation templates) and `/mail-template/create|detail/:id` (spec §2), gated by the
 * template and mailTemplate rights (spec §6).
 */
export const templateRoutes: RouteObject[] = [
  {
    path: 'template',
    handle: { crumb: 'menu.templates' },
    element: <Outlet />,
    children: [
      {
        index: true,
        element: (
          <RequireRight
            rights={[
              ['template', 'get'],
              ['mailTemplate', 'get'],
            ]}
          >
            <TemplateListPage />
          </RequireRight>
        ),
      },
      {
        path: 'create',
        handle: { crumb: 'template.create' },
        element: (
          <RequireRight rights={[['template', 'create']]}>
            <TemplateDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'template.detail' },
        element: (
          <RequireRight rights={[['template', 'get']]}>
            <TemplateDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
  {
    path: 'mail-template',
    handle: { crumb: 'menu.templates' },
    element: <Outlet />,
    children: [
      // The mail templates are listed on the /template screen's mail tab.
      { index: true, element: <Navigate to="/template?tab=mail" replace /> },
      {
        path: 'create',
        handle: { crumb: 'mailTemplate.create' },
        element: (
          <RequireRight rights={[['mailTemplate', 'create']]}>
            <MailTemplateDetailPage />
          </RequireRight>
        ),
      },
      {
        path: 'detail/:id',
        handle: { crumb: 'mailTemplate.detail' },
        element: (
          <RequireRight rights={[['mailTemplate', 'get']]}>
            <MailTemplateDetailPage />
          </RequireRight>
        ),
      },
    ],
  },
];
