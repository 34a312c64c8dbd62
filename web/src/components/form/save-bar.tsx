import { Affix, Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WorkingButton } from '../working-button';

export interface SaveBarProps {
  visible: boolean;
  busy?: boolean;
  onSave: () => void;
  onDiscard: () => void;
}

/** The bar shown while a form has unsaved changes (spec §2): save or discard them. */
export function SaveBar({ visible, busy = false, onSave, onDiscard }: SaveBarProps) {
  const { t } = useTranslation();
  if (!visible) return null;
  return (
    <Affix position={{ bottom: 16, left: '50%' }} style={{ transform: 'translateX(-50%)' }} zIndex={150}>
      <Paper shadow="md" p="sm" withBorder role="region" aria-label={t('basics.unsavedBar')}>
        <Group gap="md" wrap="nowrap">
          <Text size="sm" fw={500}>
            {t('basics.unsavedBar')}
          </Text>
          <Button variant="default" onClick={onDiscard} disabled={busy}>
            {t('basics.discard')}
          </Button>
          <WorkingButton onClick={onSave} busy={busy}>
            {t('basics.save')}
          </WorkingButton>
        </Group>
      </Paper>
    </Affix>
  );
}
