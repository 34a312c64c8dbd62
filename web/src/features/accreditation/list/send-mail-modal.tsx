import type { SendMailResult } from '@accredo/domain';
import { Alert, List, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkTarget } from '../../../api/accreditation-list';
import { ApiError } from '../../../api/client';
import { mailApi } from '../../../api/mail';
import { mailTemplateApi } from '../../../api/template';
import { i18n } from '../../../app/i18n';
import { notifyError, notifySuccess } from '../../../app/notify';
import { LoadingState } from '../../../components/loading-state';
import { bulkErrorKey } from './bulk-modals';
import { ChooseUsersNotice, isNone, ModalActions, useRequiredChoice } from './selection-modal';

/** 'User with id X: error' for each person who got no mail (spec §8). */
export function userErrorLines(errors: SendMailResult['error']): string[] {
  return errors.map(({ user, error }) =>
    i18n.t('mail.userError', { user, error: i18n.t(`mail.userErrors.${error}`, { defaultValue: error }) }),
  );
}

/** The message of a failed send: a field key (no template, no selection), a known code, else the generic one. */
function sendErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    const field = error.fields.find((f) => f.key.startsWith('mail.') || f.key.startsWith('accreditation.'));
    if (field) return field.key;
  }
  return bulkErrorKey(error, 'mail.send.failed');
}

/** Toasts of a finished send: the count queued, and the people who got nothing, one line each. */
function announce(result: SendMailResult) {
  notifySuccess('mail.send.queued', { count: result.queued });
  if (!result.error.length) return;
  const lines = userErrorLines(result.error);
  notifications.show({
    color: 'yellow',
    autoClose: false,
    title: i18n.t('mail.send.notQueued'),
    message: (
      <List size="sm" spacing={2}>
        {lines.slice(0, 50).map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
        {lines.length > 50 && <List.Item>…</List.Item>}
      </List>
    ),
  });
}

function SendMailForm({ target, count, onClose, onDone }: Omit<SendMailModalProps, 'opened'>) {
  const { t } = useTranslation();
  const template = useRequiredChoice<string | null>(null, 'mail.chooseTemplate', isNone);
  const templates = useQuery({ queryKey: ['admin', 'mail-template'], queryFn: mailTemplateApi.list });
  const send = useMutation({
    mutationFn: (id: number) => mailApi.send(target, id),
    onSuccess: (result) => {
      announce(result);
      onDone(result);
    },
    onError: (err) => notifyError(sendErrorKey(err)),
  });
  // spec §5: a mass mail uses a template of the type 'mail from admin'
  const options = (templates.data ?? [])
    .filter((m) => m.type === 2)
    .map((m) => ({ value: String(m.id), label: m.name }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (template.check()) send.mutate(Number(template.value));
  };

  let body: ReactNode;
  if (templates.isPending) body = <LoadingState />;
  else if (templates.isError)
    body = (
      <Alert color="red" role="alert">
        {t('mail.send.templatesError')}
      </Alert>
    );
  else if (options.length === 0)
    body = (
      <Alert color="yellow" role="status">
        {t('mail.send.noTemplates')}
      </Alert>
    );
  else
    body = (
      <Select
        label={t('mail.send.template')}
        description={t('mail.send.templateHint')}
        required
        searchable
        nothingFoundMessage={t('basics.noData')}
        data={options}
        value={template.value}
        onChange={template.onChange}
        error={template.error}
        data-autofocus
      />
    );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {target.all ? `${t('mail.send.allOfFilter')} · ` : ''}
          {t('mail.send.recipients', { count })}
        </Text>
        {body}
      </Stack>
      <ModalActions
        onClose={onClose}
        busy={send.isPending}
        disabled={options.length === 0}
        label={t('mail.send.submit')}
      />
    </form>
  );
}

export interface SendMailModalProps {
  opened: boolean;
  onClose: () => void;
  /** the chosen people, or with `all` the whole filter */
  target: BulkTarget;
  /** how many people that is */
  count: number;
  onDone: (result: SendMailResult) => void;
}

/**
 * The list's 'send mail' option (spec §2, §5 mass mail): a mail template of the type 'mail from
 * admin' is chosen and one mail per person is queued; the toast tells how many, and lists the
 * people who got none. Nothing selected: the 'choose users' message.
 */
export function SendMailModal({ opened, onClose, target, count, onDone }: SendMailModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('mail.send.title')}>
      {opened && count === 0 ? (
        <ChooseUsersNotice onClose={onClose} />
      ) : (
        opened && <SendMailForm target={target} count={count} onClose={onClose} onDone={onDone} />
      )}
    </Modal>
  );
}
