import { Alert, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Placeholder for areas of spec §2 that later issues build; still gated by rights in the router. */
export function NotYetAvailablePage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} size="h2" mb="md">
        {t(title)}
      </Title>
      <Alert color="gray">{t('basics.notYetAvailable')}</Alert>
    </>
  );
}
