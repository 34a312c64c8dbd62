import { hasRight, PREVIEW_MAX_COUNT } from '@accredo/domain';
import { Alert, Box, Button, Code, Group, List, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconChecklist, IconEye, IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { type TemplateCheckResult, templateEngineApi, type TemplatePayload } from '../../api/template';
import { useAdminSession } from '../../app/admin-session';
import { LoadingState } from '../../components/loading-state';
import { WorkingButton } from '../../components/working-button';
import { useSampleParams } from './use-sample-params';

export interface TemplatePreviewToolsProps {
  /** the template's current html (read when a button is pressed, so unsaved changes count) */
  getHtml: () => string;
  /** a badge template (html pages) or a mail body */
  type: 'html' | 'mail';
  pageSize?: TemplatePayload['pageSize'];
}

/** A template error's message: the engine's reason (with the line) when the server sent one. */
function ErrorAlert({ error, fallback }: { error: unknown; fallback: string }) {
  const { t } = useTranslation();
  const syntax = error instanceof ApiError && error.code === 'TEMPLATE_SYNTAX_ERROR';
  const reason = syntax && typeof error.details.reason === 'string' ? error.details.reason : null;
  return (
    <Alert color="red" role="alert" title={syntax ? t('templateEngine.syntaxTitle') : t(fallback)}>
      {reason ?? (error instanceof ApiError && !syntax ? error.message : null)}
    </Alert>
  );
}

function CheckResult({ result }: { result: TemplateCheckResult }) {
  const { t } = useTranslation();
  if (!result.missing.length && !result.unknown.length)
    return (
      <Alert color="teal" role="status" title={t('templateEngine.validTitle')}>
        {t('templateEngine.valid')}
      </Alert>
    );
  const section = (title: string, names: string[], testId: string) =>
    names.length > 0 && (
      <Box data-testid={testId}>
        <Text size="sm" fw={500}>
          {title}
        </Text>
        <List size="sm" spacing={2} aria-label={title}>
          {names.map((name) => (
            <List.Item key={name}>
              <Code>{name}</Code>
            </List.Item>
          ))}
        </List>
      </Box>
    );
  return (
    <Alert color="orange" role="status" title={t('templateEngine.problemsTitle')}>
      <Stack gap="xs">
        {section(t('templateEngine.missing'), result.missing, 'template-missing')}
        {section(t('templateEngine.unknown'), result.unknown, 'template-unknown')}
      </Stack>
    </Alert>
  );
}

/**
 * The Preview and Validate buttons of the template forms (spec §2 Template form: preview; §5 Template
 * preview): the preview renders the template on the server with a sample person of the current
 * action and shows it in a sandboxed frame (no scripts, no access to this page); the check lists the
 * placeholders without a value and the unknown ones.
 */
export function TemplatePreviewTools({ getHtml, type, pageSize }: TemplatePreviewToolsProps) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const sample = useSampleParams();
  const [opened, setOpened] = useState(false);
  const [count, setCount] = useState(1);

  const preview = useMutation({
    mutationFn: (copies: number) =>
      templateEngineApi.preview({
        data: getHtml(),
        params: sample.params,
        count: copies,
        type,
        ...(type === 'html' ? { pageSize } : {}),
      }),
  });
  const check = useMutation({ mutationFn: () => templateEngineApi.validate(getHtml(), sample.params) });

  const canPreview = hasRight(session, 'template', 'get');
  const canCheck = hasRight(session, 'template', 'postValidateTemplate');
  if (!canPreview && !canCheck) return null;

  const openPreview = () => {
    setOpened(true);
    preview.mutate(count);
  };

  let frame: ReactNode;
  if (preview.isPending) frame = <LoadingState />;
  else if (preview.isError) frame = <ErrorAlert error={preview.error} fallback="templateEngine.previewError" />;
  else if (preview.data !== undefined)
    frame = (
      <iframe
        title={t('templateEngine.previewFrame')}
        sandbox=""
        srcDoc={preview.data}
        style={{ width: '100%', height: '70vh', border: '1px solid var(--mantine-color-gray-4)', background: '#fff' }}
      />
    );

  return (
    <Stack gap="xs">
      <Group gap="sm">
        {canPreview && (
          <Button variant="light" leftSection={<IconEye size={16} />} onClick={openPreview}>
            {t('templateEngine.preview')}
          </Button>
        )}
        {canCheck && (
          <WorkingButton
            variant="light"
            busy={check.isPending}
            leftSection={<IconChecklist size={16} />}
            onClick={() => check.mutate()}
          >
            {t('templateEngine.validate')}
          </WorkingButton>
        )}
      </Group>
      {check.isError && <ErrorAlert error={check.error} fallback="templateEngine.validateError" />}
      {check.data && !check.isPending && <CheckResult result={check.data} />}

      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('templateEngine.previewTitle')}
        size="xl"
        closeButtonProps={{ 'aria-label': t('basics.close') }}
      >
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end">
            <Text size="sm" c="dimmed">
              {t(sample.fromAction ? 'templateEngine.sampleNote' : 'templateEngine.sampleNoteGeneric')}
            </Text>
            {type === 'html' && (
              <Group gap="xs" align="flex-end">
                <NumberInput
                  label={t('templateEngine.copies')}
                  size="xs"
                  w={110}
                  min={1}
                  max={PREVIEW_MAX_COUNT}
                  clampBehavior="strict"
                  allowDecimal={false}
                  value={count}
                  onChange={(value) => setCount(Math.max(1, Math.min(PREVIEW_MAX_COUNT, Number(value) || 1)))}
                />
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconRefresh size={14} />}
                  onClick={() => preview.mutate(count)}
                  disabled={preview.isPending}
                >
                  {t('templateEngine.refresh')}
                </Button>
              </Group>
            )}
          </Group>
          {frame}
        </Stack>
      </Modal>
    </Stack>
  );
}
