import { hasRight } from '@accredo/domain';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Loader,
  Paper,
  Progress,
  Radio,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  accreditationFilesApi,
  ImportError,
  type ImportRowError,
  type ImportUpload,
  importFileError,
  importFileFormatError,
  saveBlob,
} from '../../../api/accreditation-files';
import { ACCREDITATION_LIST_KEY } from '../../../api/accreditation-list';
import { ApiError } from '../../../api/client';
import { useAdminSession } from '../../../app/admin-session';
import { notifyError } from '../../../app/notify';
import { LoadingState } from '../../../components/loading-state';
import { PageHeader } from '../../../components/page-header';
import { WorkingButton } from '../../../components/working-button';
import { useCurrentAction } from '../../action/use-current-action';
import { ImageImportPanel } from './image-import-panel';
import { ImportRowErrors } from './import-errors';

/** Codes with their own message on this page (spec §8 Import codes and the import call's failures). */
const KNOWN_ERRORS = [
  'DATA_BASE64_INVALID',
  'INVALID_IMPORT_FILE_FORMAT',
  'IMPORT_FILE_EMPTY',
  'IMPORT_COLUMNS_MISMATCH',
  'IMPORT_FILE_XLS',
  'IMPORT_FILE_TOO_LARGE',
  'IMPORT_BUSY',
  'ACTION_DOESNT_EXIST',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_ERROR',
  'NETWORK_ERROR',
];

type FormField = 'dataFile' | 'zonesImportType' | 'extensionImportType';
type Errors = Partial<Record<FormField, string>>;

/**
 * `/accreditation/import` (spec §2, §5 Import): the spreadsheet import into the current action and,
 * on its own tab (`?tab=images`), the photos paired with the accreditations by file name.
 */
export function AccreditationImportPage() {
  const { t } = useTranslation();
  const current = useCurrentAction();
  const session = useAdminSession();
  const [params, setParams] = useSearchParams();
  const canSheet = hasRight(session, 'userImport', 'importUser');
  const canImages = hasRight(session, 'imageImport', 'importImage');
  const tab = (params.get('tab') === 'images' && canImages) || !canSheet ? 'images' : 'sheet';

  let body: ReactNode;
  if (current.isLoading) body = <LoadingState />;
  else if (current.actionId === null)
    body = (
      <Alert color="blue" title={t('accreditationImport.noActionTitle')}>
        {t('accreditationImport.noAction')}
      </Alert>
    );
  else
    body = (
      <Tabs
        keepMounted={false}
        value={tab}
        onChange={(value) => setParams(value === 'images' ? { tab: 'images' } : {}, { replace: true })}
      >
        <Tabs.List mb="md">
          {canSheet && <Tabs.Tab value="sheet">{t('accreditationImport.tabSheet')}</Tabs.Tab>}
          {canImages && <Tabs.Tab value="images">{t('accreditationImport.tabImages')}</Tabs.Tab>}
        </Tabs.List>
        {canSheet && (
          <Tabs.Panel value="sheet">
            <ImportForm
              key={current.actionId}
              actionId={current.actionId}
              hasExtensions={(current.action?.extension ?? []).length > 0}
            />
          </Tabs.Panel>
        )}
        {canImages && (
          <Tabs.Panel value="images">
            <ImageImportPanel key={current.actionId} actionId={current.actionId} />
          </Tabs.Panel>
        )}
      </Tabs>
    );

  return (
    <>
      <PageHeader title={t('accreditationImport.title')}>
        <Button component={Link} to="/accreditation" variant="default">
          {t('accreditationImport.backToList')}
        </Button>
      </PageHeader>
      {body}
    </>
  );
}

type Outcome =
  | { kind: 'done'; imported: number }
  | { kind: 'rows'; rows: ImportRowError[] }
  | { kind: 'error'; key: string; params?: Record<string, unknown> };

function ImportForm({ actionId, hasExtensions }: { actionId: number; hasExtensions: boolean }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const [file, setFile] = useState<File | null>(null);
  const [zones, setZones] = useState<string | null>(null);
  const [extension, setExtension] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const template = useMutation({
    mutationFn: () => accreditationFilesApi.template(actionId),
    onSuccess: saveBlob,
    onError: () => notifyError('accreditationImport.templateError'),
  });

  const upload = useMutation({
    // the file itself goes up as multipart, streamed by the server (never read into a data URL here)
    mutationFn: (input: ImportUpload) => accreditationFilesApi.import(input, setProgress),
    onMutate: () => {
      setProgress(0);
      setOutcome(null);
    },
    onSuccess: ({ imported }) => {
      setOutcome({ kind: 'done', imported });
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: ACCREDITATION_LIST_KEY });
      const id = notifications.show({
        color: 'teal',
        message: (
          <>
            {t('accreditationImport.imported', { count: imported })}{' '}
            <Anchor
              href="/accreditation"
              size="sm"
              onClick={(event) => {
                event.preventDefault();
                notifications.hide(id);
                navigate('/accreditation');
              }}
            >
              {t('accreditationImport.backToList')}
            </Anchor>
          </>
        ),
      });
    },
    onError: (error) => {
      if (error instanceof ImportError && error.code === 'IMPORT_FAILED') {
        setOutcome({ kind: 'rows', rows: error.rows });
        return;
      }
      if (error instanceof ApiError) {
        const fieldErrors: Errors = {};
        for (const field of error.fields)
          if (field.path === 'dataFile' || field.path === 'zonesImportType' || field.path === 'extensionImportType')
            fieldErrors[field.path] = field.key;
        setErrors(fieldErrors);
        if (error.code === 'IMPORT_FAILED') setOutcome({ kind: 'rows', rows: [] });
        else if (KNOWN_ERRORS.includes(error.code))
          // the details name what is wrong (IMPORT_COLUMNS_MISMATCH: column, expected, found)
          setOutcome({ kind: 'error', key: `accreditationImport.errors.${error.code}`, params: error.details });
        else if (error.status === 401) setOutcome(null);
        else setOutcome({ kind: 'error', key: 'basics.unexpectedError' });
        return;
      }
      setOutcome({ kind: 'error', key: 'accreditationImport.errorAtImport' });
    },
  });

  /** The file's own error: its name and size, then (read from its first bytes) an old .xls format. */
  const fileErrorOf = async (chosen: File | null) =>
    importFileError(chosen) ?? (chosen ? await importFileFormatError(chosen) : null);

  const chooseFile = (next: File | null) => {
    setFile(next);
    setOutcome(null);
    setErrors((old) => ({ ...old, dataFile: next ? (importFileError(next) ?? undefined) : undefined }));
    if (next && !importFileError(next))
      void importFileFormatError(next).then((error) => {
        if (error) setErrors((old) => ({ ...old, dataFile: error }));
      });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Errors = {};
    const fileError = await fileErrorOf(file);
    if (fileError) next.dataFile = fileError;
    if (zones !== '1' && zones !== '2') next.zonesImportType = 'basics.requireField';
    if (hasExtensions && extension !== '1' && extension !== '2') next.extensionImportType = 'basics.requireField';
    setErrors(next);
    if (Object.keys(next).length > 0 || !file) return;
    upload.mutate({
      actionId,
      file,
      zonesImportType: Number(zones) as 1 | 2,
      ...(hasExtensions ? { extensionImportType: Number(extension) as 1 | 2 } : {}),
    });
  };

  const busy = upload.isPending;
  const uploaded = progress >= 1;

  return (
    <Stack gap="md" maw={720}>
      <Text size="sm" c="dimmed">
        {t('accreditationImport.intro')}
      </Text>

      {hasRight(session, 'userImport', 'getTemplateToImport') && (
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            {t('accreditationImport.templateTitle')}
          </Title>
          <WorkingButton
            variant="light"
            leftSection={<IconDownload size={16} />}
            busy={template.isPending}
            onClick={() => template.mutate()}
          >
            {t('accreditationImport.downloadTemplate')}
          </WorkingButton>
        </Paper>
      )}

      <Paper
        withBorder
        p="md"
        component="form"
        onSubmit={submit}
        noValidate
        aria-label={t('accreditationImport.title')}
      >
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('accreditationImport.fileTitle')}
          </Title>
          <FileInput
            label={t('accreditationImport.file')}
            description={t('accreditationImport.fileHint')}
            placeholder={t('accreditationImport.filePlaceholder')}
            accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
            leftSection={<IconFileSpreadsheet size={16} />}
            clearable
            required
            disabled={busy}
            value={file}
            onChange={chooseFile}
            error={errors.dataFile ? t(errors.dataFile) : undefined}
          />
          <Radio.Group
            label={t('accreditationImport.zonesImportType')}
            required
            value={zones}
            onChange={(value) => {
              setZones(value);
              setErrors((old) => ({ ...old, zonesImportType: undefined }));
            }}
            error={errors.zonesImportType ? t(errors.zonesImportType) : undefined}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="1" label={t('accreditationImport.zonesManual')} disabled={busy} />
              <Radio value="2" label={t('accreditationImport.zonesFromGroup')} disabled={busy} />
            </Stack>
          </Radio.Group>
          {hasExtensions && (
            <Radio.Group
              label={t('accreditationImport.extensionImportType')}
              required
              value={extension}
              onChange={(value) => {
                setExtension(value);
                setErrors((old) => ({ ...old, extensionImportType: undefined }));
              }}
              error={errors.extensionImportType ? t(errors.extensionImportType) : undefined}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="1" label={t('accreditationImport.extensionManual')} disabled={busy} />
                <Radio value="2" label={t('accreditationImport.extensionFromGroup')} disabled={busy} />
              </Stack>
            </Radio.Group>
          )}

          {busy && (
            <Stack gap={4} aria-live="polite">
              {uploaded ? (
                <Group gap="xs">
                  <Loader size="sm" aria-hidden />
                  <Text size="sm">{t('accreditationImport.importing')}</Text>
                </Group>
              ) : (
                <>
                  <Text size="sm">{t('accreditationImport.uploading', { percent: Math.round(progress * 100) })}</Text>
                  <Progress
                    value={Math.round(progress * 100)}
                    animated
                    aria-label={t('accreditationImport.uploading', { percent: Math.round(progress * 100) })}
                  />
                </>
              )}
            </Stack>
          )}

          <Group justify="flex-end">
            <WorkingButton type="submit" busy={busy} leftSection={<IconUpload size={16} />}>
              {t('accreditationImport.import')}
            </WorkingButton>
          </Group>
        </Stack>
      </Paper>

      {outcome?.kind === 'done' && (
        <Alert color="teal" role="status" title={t('accreditationImport.imported', { count: outcome.imported })}>
          <Anchor component={Link} to="/accreditation">
            {t('accreditationImport.backToList')}
          </Anchor>
        </Alert>
      )}
      {outcome?.kind === 'rows' && <ImportRowErrors rows={outcome.rows} />}
      {outcome?.kind === 'error' && (
        <Alert color="red" role="alert" title={t('accreditationImport.errorAtImport')}>
          {t(outcome.key, outcome.params)}
        </Alert>
      )}
    </Stack>
  );
}
