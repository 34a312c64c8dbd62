import { type ForgotPasswordInput, forgotPasswordSchema } from '@accredo/domain';
import { isLanguage } from '@accredo/i18n';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../../api/admin';
import { isApiError } from '../../api/client';
import { notifyError, notifySuccess } from '../../app/notify';
import { applyFieldErrors, useFieldError } from '../../components/form';
import { WorkingButton } from '../../components/working-button';

type ForgotValues = Pick<ForgotPasswordInput, 'login'>;

/** The forgot-password dialog (spec §2): asks for the e-mail and sends a password link. */
export function ForgotPasswordModal({
  opened,
  onClose,
  defaultEmail = '',
}: {
  opened: boolean;
  onClose: () => void;
  defaultEmail?: string;
}) {
  const { t, i18n } = useTranslation();
  const form = useForm<ForgotValues>({
    resolver: zodResolver(forgotPasswordSchema.pick({ login: true })),
    defaultValues: { login: '' },
  });
  const fieldError = useFieldError(form.formState.errors);
  const { reset } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: prefill when the dialog opens, not on every keystroke
  useEffect(() => {
    if (opened) reset({ login: defaultEmail });
  }, [opened, reset]);

  const send = useMutation({
    mutationFn: (values: ForgotValues) =>
      adminApi.forgotPassword({ login: values.login, language: isLanguage(i18n.language) ? i18n.language : 'cs' }),
    onSuccess: () => {
      notifySuccess('basics.forgotPasswordEmailSend');
      onClose();
    },
    onError: (error) => {
      if (isApiError(error, 'EMAIL_NOT_FOUND')) {
        form.setError('login', { type: 'server', message: 'basics.forgotPasswordInvalidEmail' });
        notifyError('basics.forgotPasswordInvalidEmail');
      } else if (!applyFieldErrors(error, form.setError)) {
        notifyError('basics.unexpectedError');
      }
    },
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('basics.forgotPassword')} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.stopPropagation();
          void form.handleSubmit((values) => send.mutate(values))(event);
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('basics.forgotPasswordText')}</Text>
          <TextInput
            label={t('basics.email')}
            type="email"
            required
            data-autofocus
            {...form.register('login')}
            error={fieldError('login')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('basics.cancel')}
            </Button>
            <WorkingButton type="submit" busy={send.isPending}>
              {t('basics.sendLink')}
            </WorkingButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
