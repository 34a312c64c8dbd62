import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorPage } from './error-page';

/** The router's error element: a thrown response keeps its status, anything else is unexpected. */
export function RouteError({ homePath = '/' }: { homePath?: string }) {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    return (
      <ErrorPage
        code={error.status}
        homePath={homePath}
        message={error.status === 404 ? undefined : t('basics.unexpectedError')}
      />
    );
  }
  return <ErrorPage code={500} homePath={homePath} message={t('basics.unexpectedError')} />;
}
