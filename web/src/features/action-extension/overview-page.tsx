import { EXTENSION_MEAL, EXTENSION_PARKING, hasAnyRight } from '@accredo/domain';
import { Alert, Paper, SimpleGrid, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconCar, IconReportAnalytics, IconToolsKitchen2 } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdminSession } from '../../app/admin-session';
import { PageHeader } from '../../components/page-header';

interface Card {
  key: string;
  to: string;
  title: string;
  text: string;
  icon: ReactNode;
}

/**
 * `/action-extension` (spec §2): a card per extension the subject has switched on (meal, parking)
 * and the report card; without any extension a message says so.
 */
export function ExtensionOverviewPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const { extensions } = session.subject;
  const cards: Card[] = [];
  if (extensions.includes(EXTENSION_MEAL))
    cards.push({
      key: 'meal',
      to: '/action-extension/meal',
      title: t('extension.meal.title'),
      text: t('extension.meal.cardText'),
      icon: <IconToolsKitchen2 size={26} />,
    });
  if (extensions.includes(EXTENSION_PARKING))
    cards.push({
      key: 'parking',
      to: '/action-extension/parking',
      title: t('extension.parking.title'),
      text: t('extension.parking.cardText'),
      icon: <IconCar size={26} />,
    });
  if (cards.length > 0 && hasAnyRight(session, [['actionExtension', 'getActionExtensionReport']]))
    cards.push({
      key: 'report',
      to: '/action-extension/report',
      title: t('extension.report.title'),
      text: t('extension.report.cardText'),
      icon: <IconReportAnalytics size={26} />,
    });

  return (
    <>
      <PageHeader title={t('extension.title')} />
      {cards.length === 0 ? (
        <Alert color="gray">{t('extension.noneEnabled')}</Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          {cards.map((card) => (
            <UnstyledButton key={card.key} component={Link} to={card.to} aria-label={card.title}>
              <Paper withBorder p="lg" radius="md" h="100%">
                <Stack gap="sm">
                  <ThemeIcon size={48} radius="md" variant="light" aria-hidden>
                    {card.icon}
                  </ThemeIcon>
                  <Text fw={700} size="lg">
                    {card.title}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {card.text}
                  </Text>
                </Stack>
              </Paper>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </>
  );
}
