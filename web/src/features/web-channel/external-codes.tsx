import {
  EXTERNAL_CODE_MAX_LENGTH,
  type ExternalCodeImportResult,
  hasRight,
  normalizeCode,
  REQUIRED,
  type WebChannel,
} from '@accredo/domain';
import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Modal,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFileImport, IconHistory, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { readAsDataUrl, saveBlob } from '../../api/accreditation-files';
import { isApiError } from '../../api/client';
import { webChannelApi } from '../../api/web-channel';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { FormFields, useReadOnly } from '../../components/form';
import type { ExternalCodeValues } from './form-values';
import { enterApplies, RowDialog, RowIcon, RowText } from './row-dialog';
import type { ChannelForm } from './web-channel-detail-page';

interface CodeRow extends ExternalCodeValues {
  index: number;
  _key: string;
}

/** A code with a usage log (used for a registration) cannot be removed (spec §4). */
export const isCodeUsed = (code: Pick<ExternalCodeValues, 'used' | 'log'>) => code.used > 0 || code.log.length > 0;

/** Spec §5: one .csv file. */
export function csvFileError(file: File | null): string | null {
  if (!file) return 'webChannelRules.chooseCsvFile';
  return file.name.toLowerCase().endsWith('.csv') ? null : 'webChannelRules.chooseCsvFile';
}

/** The message of a failed import: a wrong file says so, anything else the generic failure. */
function importErrorKey(error: unknown): string {
  if (isApiError(error, 'VALIDATION_ERROR') || isApiError(error, 'INVALID_IMPORT_FILE_FORMAT'))
    return 'webChannelRules.chooseCsvFile';
  if (isApiError(error, 'DATA_BASE64_INVALID')) return 'errors.DATA_BASE64_INVALID';
  return 'webChannel.importError';
}

/** The uses input as the import sends it: a number, or null while empty. */
const usesOf = (value: number | string): number | null =>
  value === '' || value === null || Number.isNaN(Number(value)) ? null : Number(value);

/**
 * External codes of a channel (spec §3, §4, §5): the uses a new code gets, the codes with their
 * uses and usage log, add/edit/remove (a used code stays), a CSV import merged into the form and
 * an export of the stored codes. Changes apply when the channel is saved.
 */
export function ExternalCodes({
  form,
  fieldError,
  channel,
}: {
  form: ChannelForm;
  fieldError: (name: string) => string | undefined;
  channel?: WebChannel;
}) {
  const { t } = useTranslation();
  const session = useAdminSession();
  // A user who may only look still sees the usage logs and may export (own right); nothing else.
  const readOnly = useReadOnly();
  const { fields, append, update, remove } = useFieldArray({
    control: form.control,
    name: 'externalCode',
    keyName: '_key',
  });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const [phrase, setPhrase] = useState('');
  const [importResult, setImportResult] = useState<ExternalCodeImportResult | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const rows: CodeRow[] = fields
    .map((f, index) => ({ ...f, index }))
    .filter((c) => !phrase.trim() || c.code.includes(normalizeCode(phrase)));

  const importCodes = useMutation({
    mutationFn: async (file: File) =>
      webChannelApi.importCodes({
        dataFile: await readAsDataUrl(file),
        numberUseExtCode: usesOf(form.getValues('numberUseExtCode')),
        existing: form.getValues('externalCode').map((c) => c.code),
      }),
    onSuccess: (result) => {
      if (result.codes.length > 0)
        append(result.codes.map((c) => ({ id: null, code: c.code, numberOfUse: c.numberOfUse, used: 0, log: [] })));
      setImportResult(result);
      notifySuccess('webChannel.codesImported', { count: result.codes.length });
    },
    onError: (error) => {
      setImportResult(null);
      notifyError(importErrorKey(error));
    },
  });

  const exportCodes = useMutation({
    mutationFn: (id: number) => webChannelApi.exportCodes(id),
    onSuccess: saveBlob,
    onError: () => notifyError('webChannel.exportError'),
  });

  const columns: DataTableColumn<CodeRow>[] = [
    {
      key: 'code',
      header: t('webChannel.code'),
      render: (c) => (
        <RowText
          text={c.code}
          mono
          error={fieldError(`externalCode.${c.index}.code`) ?? fieldError(`externalCode.${c.index}.numberOfUse`)}
        />
      ),
    },
    {
      key: 'numberOfUse',
      header: t('webChannel.numberOfUse'),
      render: (c) => (c.numberOfUse === 0 ? t('webChannel.unlimited') : c.numberOfUse),
    },
    { key: 'used', header: t('webChannel.used'), render: (c) => c.used },
    {
      key: 'options',
      header: t('basics.options'),
      render: (c) => {
        const used = isCodeUsed(c);
        return (
          <Group gap={4} wrap="nowrap">
            <RowIcon
              label={t('webChannel.usageLog')}
              name={c.code}
              icon={<IconHistory size={16} />}
              disabled={c.log.length === 0}
              onClick={() => setLogOf(c.index)}
            />
            <RowIcon
              label={t('basics.edit')}
              name={c.code}
              icon={<IconPencil size={16} />}
              disabled={readOnly}
              onClick={() => setEditing(c.index)}
            />
            <RowIcon
              label={t('basics.remove')}
              tooltip={used ? t('webChannel.usedCodeCannotRemove') : undefined}
              name={c.code}
              icon={<IconTrash size={16} />}
              color="red"
              disabled={used || readOnly}
              onClick={() => remove(c.index)}
            />
          </Group>
        );
      },
    },
  ];

  const taken = (index: number | 'new') =>
    form
      .getValues('externalCode')
      .filter((_, i) => i !== index)
      .map((c) => c.code);
  const logCode = logOf === null ? undefined : form.getValues(`externalCode.${logOf}`);
  const canExport = channel && hasRight(session, 'webChannel', 'exportExternalCode');

  return (
    <Stack gap="sm">
      <FormFields>
        <Controller
          control={form.control}
          name="numberUseExtCode"
          render={({ field }) => (
            <NumberInput
              label={t('webChannel.numberUseExtCode')}
              description={t('webChannel.numberUseExtCodeHint')}
              required
              min={0}
              allowDecimal={false}
              allowNegative={false}
              maw={360}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              error={fieldError('numberUseExtCode')}
            />
          )}
        />
      </FormFields>
      <Group justify="space-between" align="flex-end">
        <Text fw={500}>{t('webChannel.codes')}</Text>
        <Group gap="sm" align="flex-end">
          <FileInput
            aria-label={t('webChannel.importCodes')}
            placeholder={importCodes.isPending ? t('basics.working') : t('webChannel.importCodes')}
            description={t('webChannel.importCodesHint')}
            accept=".csv,text/csv"
            leftSection={<IconFileImport size={16} />}
            value={null}
            disabled={importCodes.isPending || readOnly}
            error={fileError ? t(fileError) : undefined}
            onChange={(file) => {
              const error = csvFileError(file);
              setFileError(file ? error : null);
              if (file && !error) importCodes.mutate(file);
            }}
            w={260}
          />
          {canExport && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exportCodes.isPending}
              onClick={() => exportCodes.mutate(channel.id)}
            >
              {t('webChannel.exportCodes')}
            </Button>
          )}
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            disabled={readOnly}
            onClick={() => setEditing('new')}
          >
            {t('webChannel.addCode')}
          </Button>
        </Group>
      </Group>
      {importResult && importResult.skipped.length > 0 && (
        <Alert
          color="yellow"
          title={t('webChannel.linesNotImported', { count: importResult.skipped.length })}
          withCloseButton
          closeButtonLabel={t('basics.close')}
          onClose={() => setImportResult(null)}
        >
          <List size="sm">
            {importResult.skipped.map((line) => (
              <List.Item key={line.line}>
                {t('webChannel.skippedLine', {
                  line: line.line,
                  text: line.text,
                  reason: t(`webChannel.skipReason.${line.reason}`),
                })}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {fieldError('externalCode') && (
        <Text size="sm" c="red" role="alert">
          {fieldError('externalCode')}
        </Text>
      )}
      {fields.length > 10 && (
        <TextInput
          label={t('webChannel.searchCode')}
          value={phrase}
          onChange={(e) => setPhrase(e.currentTarget.value)}
          maw={280}
        />
      )}
      <DataTable
        label={t('webChannel.codes')}
        columns={columns}
        rows={rows}
        getRowId={(c) => c._key}
        onOpen={readOnly ? undefined : (c) => setEditing(c.index)}
        emptyText={t('webChannel.noCodes')}
      />
      <CodeModal
        key={String(editing)}
        opened={editing !== null}
        code={typeof editing === 'number' ? form.getValues(`externalCode.${editing}`) : undefined}
        defaultUses={usesOf(form.getValues('numberUseExtCode')) ?? 0}
        takenCodes={editing === null ? [] : taken(editing)}
        onClose={() => setEditing(null)}
        onSave={(code) => {
          if (typeof editing === 'number') update(editing, code);
          else append(code);
          void form.trigger('externalCode');
          setEditing(null);
        }}
      />
      <Modal
        opened={logCode !== undefined}
        onClose={() => setLogOf(null)}
        title={logCode ? `${t('webChannel.usageLog')}: ${logCode.code}` : ''}
        size="lg"
      >
        {logCode && logCode.log.length > 0 ? (
          <Table striped aria-label={t('webChannel.usageLog')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('webChannel.logDate')}</Table.Th>
                <Table.Th>{t('webChannel.logFirstname')}</Table.Th>
                <Table.Th>{t('webChannel.logLastname')}</Table.Th>
                <Table.Th>{t('basics.email')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {logCode.log.map((entry, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the log has no ids and never reorders
                <Table.Tr key={i}>
                  <Table.Td>{formatInstant(entry.date)}</Table.Td>
                  <Table.Td>{entry.firstname}</Table.Td>
                  <Table.Td>{entry.lastname}</Table.Td>
                  <Table.Td>{entry.email}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            {t('basics.noData')}
          </Text>
        )}
      </Modal>
    </Stack>
  );
}

/** An instant of the log (ISO, UTC) in the browser's clock. */
function formatInstant(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' }).format(time);
}

/** Add or edit one code: the code (compared without case) and its uses (0 = unlimited). */
function CodeModal({
  opened,
  code,
  defaultUses,
  takenCodes,
  onClose,
  onSave,
}: {
  opened: boolean;
  code?: ExternalCodeValues;
  defaultUses: number;
  takenCodes: string[];
  onClose: () => void;
  onSave: (code: ExternalCodeValues) => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(code?.code ?? '');
  const [uses, setUses] = useState<number | string>(code?.numberOfUse ?? defaultUses);
  const [errors, setErrors] = useState<{ code?: string; numberOfUse?: string }>({});
  const used = code ? isCodeUsed(code) : false;

  const submit = () => {
    const next: typeof errors = {};
    const normalized = normalizeCode(value);
    if (!normalized) next.code = REQUIRED;
    else if (normalized.length > EXTERNAL_CODE_MAX_LENGTH) next.code = 'basics.tooLong';
    else if (takenCodes.includes(normalized)) next.code = 'webChannelRules.codeExists';
    const count = Number(uses);
    if (uses === '' || !Number.isInteger(count) || count < 0) next.numberOfUse = 'webChannelRules.positiveNumber';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    onSave({
      id: code?.id ?? null,
      code: normalized,
      numberOfUse: count,
      used: code?.used ?? 0,
      log: code?.log ?? [],
    });
  };
  const onEnter = enterApplies(submit);

  return (
    <RowDialog
      opened={opened}
      onClose={onClose}
      title={code ? t('webChannel.editCode') : t('webChannel.addCode')}
      onApply={submit}
    >
      <TextInput
        label={t('webChannel.code')}
        description={used ? t('webChannel.usedCodeFixed') : t('webChannel.codeHint')}
        required
        data-autofocus
        onKeyDown={onEnter}
        autoComplete="off"
        readOnly={used}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        error={errors.code ? t(errors.code) : undefined}
      />
      <NumberInput
        label={t('webChannel.numberOfUse')}
        description={t('webChannel.numberOfUseHint')}
        required
        min={0}
        allowDecimal={false}
        allowNegative={false}
        value={uses}
        onChange={setUses}
        onKeyDown={onEnter}
        error={errors.numberOfUse ? t(errors.numberOfUse) : undefined}
      />
    </RowDialog>
  );
}
