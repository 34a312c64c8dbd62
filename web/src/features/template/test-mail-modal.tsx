import { hasRight, testMailSchema } from '@accredo/domain';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { mailApi } from '../../api/mail';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { WorkingButton } from '../../components/working-button';

/** The message of a failed test: a field key, the template's own error, else the generic one. */
function testErrorKey(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.fields[0]) return error.fields[0].key;
    if (error.code === 'TEMPLATE_SYNTAX_ERROR' || error.code === 'NOT_FOUND') return `errors.${error.code}`;
  }
  return 'mail.test.failed';
}

function TestMailForm({
  mailTemplateId,
  language,
  onClose,
}: {
  mailTemplateId: number;
  language?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (address: string) => mailApi.test(mailTemplateId, address, language),
    onSuccess: (result) => {
      notifySuccess('mail.test.queued', { email: result.email });
      onClose();
    },
    onError: (err) => {
      const key = testErrorKey(err);
      if (key.startsWith('basics.')) setError(key);
      else notifyError(key);
    },
  });
  const submit = () => {
    // the same check as the server's (libs/domain)
    const parsed = testMailSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'basics.emailNotValid');
      return;
    }
    send.mutate(parsed.data.email);
  };
  return (
    // Not a <form>: the modal belongs to the template's form (a form in a form is invalid, and its
    // submit would save the template); Enter in the field sends.
    <div>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('mail.test.hint')}
        </Text>
        {language && (
          <Text size="sm">
            {t('mail.test.language')}: {t(`lang.${language}`)}
          </Text>
        )}
        <TextInput
          label={t('mail.test.email')}
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setError(null);
          }}
          error={error ? t(error) : undefined}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            submit();
          }}
          data-autofocus
        />
      </Stack>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('basics.cancel')}
        </Button>
        <WorkingButton busy={send.isPending} onClick={submit}>
          {t('mail.test.submit')}
        </WorkingButton>
      </Group>
    </div>
  );
}

/**
 * The mail template form's 'send test' (spec §6 mailTemplate.testMailTemplate): an address in a
 * modal; the saved template (its text in `language`, the open language tab) is filled in with
 * sample data and sent there.
 */
export function TestMailButton({ mailTemplateId, language }: { mailTemplateId: number; language?: string }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const [opened, setOpened] = useState(false);
  if (!hasRight(session, 'mailTemplate', 'testMailTemplate')) return null;
  return (
    <>
      <Button variant="light" leftSection={<IconSend size={16} />} onClick={() => setOpened(true)}>
        {t('mail.test.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('mail.test.title')}>
        {opened && (
          <TestMailForm mailTemplateId={mailTemplateId} language={language} onClose={() => setOpened(false)} />
        )}
      </Modal>
    </>
  );
}
