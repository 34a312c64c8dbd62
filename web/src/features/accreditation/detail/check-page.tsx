import { Alert, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconBarcode } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { accreditationApi, accreditationByBcKey } from '../../../api/accreditation';
import { ApiError } from '../../../api/client';
import { notifyError } from '../../../app/notify';
import { LoadingState } from '../../../components/loading-state';
import { PageHeader } from '../../../components/page-header';
import { AccreditationEditor } from './accreditation-form';

const isNotFound = (error: unknown) =>
  error instanceof ApiError && (error.code === 'BC_NOT_EXIST' || error.status === 404);

/**
 * `/accreditation/check` (spec §2, §8 Barcode): a code typed or read by a keyboard-wedge scanner
 * (which types the code and Enter). Found → `/accreditation/check/{bc}`; not found → a message,
 * and the input is ready for the next code. Camera scanning is not available in this build.
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

  const submit = async () => {
    const bc = code.trim();
    if (!bc || busy) return;
    setBusy(true);
    setNotFound(null);
    setFailed(false);
    try {
      const found = await accreditationApi.check(bc);
      queryClient.setQueryData(accreditationByBcKey(found.bc), found);
      navigate(`/accreditation/check/${encodeURIComponent(found.bc)}`);
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
            void submit();
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
      <Text size="xs" c="dimmed">
        {t('accreditationDetail.cameraUnavailable')}
      </Text>
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
  return (
    <AccreditationEditor key={query.data.id} actionId={query.data.actionId} accreditation={query.data} mode="check" />
  );
}
