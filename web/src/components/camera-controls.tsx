import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CameraOption } from './camera';

/** The camera select of the webcam photo and the code scanner (shown once there is a camera list). */
export function CameraPicker({
  cameras,
  activeId,
  onChange,
  disabled,
}: {
  cameras: CameraOption[];
  activeId: string | null;
  onChange: (deviceId: string | null) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  if (!cameras.length) return null;
  return (
    <Select
      label={t('webcam.camera')}
      data={cameras}
      value={activeId && cameras.some((c) => c.value === activeId) ? activeId : null}
      onChange={onChange}
      allowDeselect={false}
      disabled={disabled}
    />
  );
}

/** A camera failure in words (a catalogue key from cameraErrorKey), with a retry where one can help. */
export function CameraError({ error, onRetry }: { error: string | null; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert color="red" role="alert" title={t('webcam.errorTitle')}>
      <Stack gap="xs">
        <Text size="sm">{t(error)}</Text>
        {error !== 'webcam.unsupported' && (
          <Group>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
              {t('webcam.retry')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
