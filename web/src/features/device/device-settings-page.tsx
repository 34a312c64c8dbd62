import { hasRight } from '@accredo/domain';
import { Alert, Anchor, Box, Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceApi } from '../../api/device';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { DEVICE_KEY_KEY, DEVICES_KEY } from './shared';

/** A code as a scannable QR image (the same drawing as badges) with its text beneath. */
function CodeCard({ title, hint, code, testId }: { title: string; hint: string; code: string; testId: string }) {
  const { t } = useTranslation();
  const [svg, setSvg] = useState('');
  useEffect(() => {
    let live = true;
    // the badge engine's drawing, loaded only on this page: the rest of the app does not need it
    void import('@accredo/templates').then(({ barcodeSvg }) => {
      if (live) setSvg(barcodeSvg(code, 'qrcode').replace(/width="30mm"/, 'width="220"'));
    });
    return () => {
      live = false;
    };
  }, [code]);
  return (
    <Paper withBorder p="md" w={300} maw="100%" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} size="h5" mb={4}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {hint}
      </Text>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the engine's SVG of our own code (the text is escaped) */}
      <Box ta="center" dangerouslySetInnerHTML={{ __html: svg }} />
      <Group gap="xs" mt="sm" wrap="nowrap">
        {/* the code shrinks and wraps; the copy button keeps its width */}
        <Code style={{ wordBreak: 'break-all', flex: 1, minWidth: 0 }}>{code}</Code>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="subtle" onClick={copy} style={{ flexShrink: 0 }}>
              {t(copied ? 'basics.copied' : 'basics.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Paper>
  );
}

/** `/device/settings` (spec §2): the pairing code `bc` and the unpairing code `bcClear`, and key rotation. */
export function DeviceSettingsPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const key = useQuery({ queryKey: DEVICE_KEY_KEY, queryFn: deviceApi.key });
  const [rotating, setRotating] = useState(false);
  const canRotate = hasRight(session, 'device', 'updateDevice');

  const rotate = () =>
    modals.openConfirmModal({
      title: t('device.rotateTitle'),
      children: <Text size="sm">{t('device.rotateText')}</Text>,
      labels: { confirm: t('device.rotate'), cancel: t('basics.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        setRotating(true);
        try {
          queryClient.setQueryData(DEVICE_KEY_KEY, await deviceApi.rotateKey());
          void queryClient.invalidateQueries({ queryKey: DEVICES_KEY, exact: true });
          notifySuccess('device.rotated');
        } catch {
          notifyError('device.rotateError');
        } finally {
          setRotating(false);
        }
      },
    });

  return (
    <>
      <PageHeader title={t('device.settingsTitle')}>
        {canRotate && (
          <Button
            color="red"
            variant="light"
            leftSection={<IconRefresh size={16} />}
            onClick={rotate}
            loading={rotating}
            disabled={!key.data}
          >
            {t('device.rotate')}
          </Button>
        )}
      </PageHeader>
      {key.isPending ? (
        <LoadingState />
      ) : key.isError || !key.data ? (
        <Alert color="red">{t('device.keyLoadError')}</Alert>
      ) : (
        <Stack>
          <Text size="sm">{t('device.settingsIntro')}</Text>
          <Text size="sm">
            {t('device.gateScreen')}{' '}
            <Anchor href="/gate" target="_blank" rel="noopener" data-testid="gate-link">
              {`${window.location.origin}/gate`}
            </Anchor>
          </Text>
          <Group align="flex-start" gap="lg">
            <CodeCard title={t('device.pairCode')} hint={t('device.pairHint')} code={key.data.bc} testId="pair-code" />
            <CodeCard
              title={t('device.clearCode')}
              hint={t('device.clearHint')}
              code={key.data.bcClear}
              testId="clear-code"
            />
          </Group>
        </Stack>
      )}
    </>
  );
}
