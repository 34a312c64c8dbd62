import { hasRight } from '@accredo/domain';
import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api/admin';
import { useAdminSession } from '../../app/admin-session';
import { DashboardInsights } from './dashboard-insights';
import { DashboardTiles } from './dashboard-tiles';

/** `/` (spec §2 Dashboard): the welcome, the count tiles, the charts and the latest registrations; without the right, the no-rights view. */
export function DashboardPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const allowed = hasRight(session, 'dashboard', 'getDashboardData');
  const canProfile = hasRight(session, 'adminUser', 'getActualAdminUser');
  const actual = useQuery({ queryKey: ['admin', 'actual'], queryFn: adminApi.getActual, enabled: canProfile });
  const name = actual.data?.name ?? '';

  return (
    <>
      <Title order={1} size="h2" mb="md">
        {t('dashboard.title')}
      </Title>
      {allowed ? (
        <Stack gap="lg">
          <Text size="lg">{t('dashboard.welcome', { name: name || session.subject.name })}</Text>
          <DashboardTiles />
          <DashboardInsights />
        </Stack>
      ) : (
        <Alert color="yellow" role="status">
          {t('dashboard.noRights')}
        </Alert>
      )}
    </>
  );
}
