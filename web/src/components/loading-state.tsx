import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function LoadingState() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" mr="sm" />
      <Text size="sm">{t('basics.loading')}</Text>
    </Center>
  );
}
