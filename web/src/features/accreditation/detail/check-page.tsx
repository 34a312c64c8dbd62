import { Alert, Button, Group, Paper, Stack, Switch, TextInput } from '@mantine/core';
import { IconBarcode } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { accreditationApi, accreditationByBcKey } from '../../../api/accreditation';
import { ApiError } from '../../../api/client';
import { notifyError } from '../../../app/notify';
import { CAMERA_STORAGE } from '../../../components/camera';
import { LoadingState } from '../../../components/loading-state';
import { PageHeader } from '../../../components/page-header';
import { readStorage, writeStorage } from '../../../api/storage';
import { AccreditationEditor } from './accreditation-form';
import { CameraScanner } from './camera-scanner';

const isNotFound = (error: unknown) =>
  error instanceof ApiError && (error.code === 'BC_NOT_EXIST' || error.status === 404);

/**
 * `/accreditation/check` (spec §2, §8 Barcode): a code typed, read by a keyboard-wedge scanner
 * (which types the code and Enter) or read by the webcam (the 'camera' switch, remembered as
 * spec §3's 'camera enabled'). Every code goes the same way: found → `/accreditation/check/{bc}`;
 * not found → a message, and the page is ready for the next code.
 */
export function AccreditationCheckPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [notFound, setNotFound] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [camera, setCamera] = useState(() => readStorage(CAMERA_STORAGE.scanEnabled) === '1');

  const toggleCamera = (on: boolean) => {
    setCamera(on);
    writeStorage(CAMERA_STORAGE.scanEnabled, on ? '1' : null);
    input.current?.focus();
  };

  const submit = async (value: string) => {
    const bc = value.trim();
    if (!bc || busy) return;
    setBusy(true);
    setNotFound(null);
    setFailed(false);
    try {
      const found = await accreditationApi.check(bc);
      // the badge's code as read (a versioned one names which badge: a replaced one is shown as such)
      const read = found.checked?.code ?? found.bc;
      queryClient.setQueryData(accreditationByBcKey(read), found);
      navigate(`/accreditation/check/${encodeURIComponent(read)}`);
    } catch (error) {
      if (isNotFound(error)) setNotFound(bc);
      else {
        setFailed(true);
        notifyError('accreditationDetail.checkError');
      }
      setCode('');
      setBusy(false);
      input.current?.focus();
    }
  };

  return (
    <Stack gap="md" maw={520}>
      <PageHeader title={t('accreditationDetail.checkTitle')} />
      <Paper withBorder p="md">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit(code);
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              ref={input}
              label={t('accreditationDetail.code')}
              description={t('accreditationDetail.codeHint')}
              leftSection={<IconBarcode size={16} />}
              autoFocus
              autoComplete="off"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              style={{ flex: 1 }}
              readOnly={busy}
            />
            <Button type="submit" loading={busy} disabled={!code.trim()}>
              {t('accreditationDetail.find')}
            </Button>
          </Group>
        </form>
      </Paper>
      {notFound && (
        <Alert color="red" role="alert">
          {t('accreditationDetail.bcNotExist', { code: notFound })}
        </Alert>
      )}
      {failed && (
        <Alert color="red" role="alert">
          {t('accreditationDetail.checkError')}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Switch
            label={t('scanner.camera')}
            checked={camera}
            onChange={(event) => toggleCamera(event.currentTarget.checked)}
          />
          {camera && <CameraScanner paused={busy} onCode={(read) => void submit(read)} />}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** `/accreditation/check/:bc`: the accreditation found by its code, editable; an unknown code goes back. */
export function AccreditationCheckDetailPage() {
  const bc = useParams().bc ?? '';
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: accreditationByBcKey(bc),
    queryFn: () => accreditationApi.check(bc),
    staleTime: 0,
    enabled: bc !== '',
  });
  const error = query.error;
  useEffect(() => {
    if (!error) return;
    if (error instanceof ApiError && error.status === 401) return;
    notifyError(isNotFound(error) ? 'accreditationDetail.bcNotExistShort' : 'accreditationDetail.loadError');
    navigate('/accreditation/check', { replace: true });
  }, [error, navigate]);
  if (!query.data) return <LoadingState />;
  const checked = query.data.checked;
  const editor = (
    <AccreditationEditor key={query.data.id} actionId={query.data.actionId} accreditation={query.data} mode="check" />
  );
  if (!checked?.superseded) return editor;
  return (
    <Stack gap="md">
      <SupersededBadge
        version={checked.version}
        current={query.data.badgeVersion ?? 0}
        code={query.data.badgeCode ?? query.data.bc}
      />
      {editor}
    </Stack>
  );
}

/** A badge that a reprint retired ("replace the old badge"): its code no longer opens gates. */
function SupersededBadge({ version, current, code }: { version: number; current: number; code: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={t('accreditationDetail.badgeSupersededTitle')}>
      {t('accreditationDetail.badgeSuperseded', { version, current, code })}
    </Alert>
  );
}
