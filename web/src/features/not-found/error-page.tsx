import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export interface ErrorPageProps {
  code?: number | string;
  /** the message shown; basics.unknownPage by default */
  message?: string;
  homePath?: string;
}

/** The not-found or error page (spec §2): a code (404 by default), a message and a back-home button. */
export function ErrorPage({ code = 404, message, homePath = '/' }: ErrorPageProps) {
  const { t } = useTranslation();
  return (
    <Center py={80} px="md">
      <Stack align="center" gap="md">
        <Title order={1} fz={72} c="dimmed">
          {code}
        </Title>
        <Text size="lg" ta="center">
          {message ?? t('basics.unknownPage')}
        </Text>
        <Button component={Link} to={homePath}>
          {t('basics.backHome')}
        </Button>
      </Stack>
    </Center>
  );
}

export function NotFoundPage() {
  return <ErrorPage />;
}
