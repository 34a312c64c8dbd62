import { Badge, Group, Title, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useReadOnly } from './form/read-only';

/** A page's title with its actions on the right; a read-only form's title says so. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  const readOnly = useReadOnly();
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Group gap="sm" wrap="nowrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        {readOnly && (
          <Tooltip label={t('basics.readOnlyHint')} multiline w={260}>
            <Badge color="gray" variant="light" tt="none">
              {t('basics.readOnly')}
            </Badge>
          </Tooltip>
        )}
      </Group>
      {children && <Group gap="sm">{children}</Group>}
    </Group>
  );
}
