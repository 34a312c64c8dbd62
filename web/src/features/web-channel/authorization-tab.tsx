import { AUTHORIZATION_TYPES, type AuthorizationType } from '@accredo/domain';
import { Group, PasswordInput, Radio, Stack } from '@mantine/core';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MultiTextFields } from '../action/form-fields';
import { BooleanField } from '../../components/form';
import { AUTHORIZATION_LABELS } from './authorization';
import { ChannelUsers } from './channel-users';
import { ExternalCodes } from './external-codes';
import type { ChannelTabProps } from './web-channel-detail-page';
import { FormFields } from '../../components/form';

/**
 * Authorization tab (spec §2, §4, §5): off, or one of 1 a password, 2 login users, 3 external
 * codes, with the text shown above the sign-in. The stored password is never shown: blank keeps it.
 */
export function AuthorizationTab({
  form,
  fieldError,
  languages,
  channel,
  hasPassword,
}: ChannelTabProps & { hasPassword: boolean }) {
  const { t } = useTranslation();
  const [withAuthorization, type] = useWatch({
    control: form.control,
    name: ['withAuthorization', 'authorizationType'],
  });

  return (
    <Stack gap="md" maw={900}>
      <FormFields>
        <BooleanField
          control={form.control}
          name="withAuthorization"
          label={t('webChannel.withAuthorization')}
          description={t('webChannel.withAuthorizationHint')}
          onValueChange={(on) => {
            if (on && !form.getValues('authorizationType'))
              form.setValue('authorizationType', 1, { shouldDirty: true });
          }}
        />
        {withAuthorization && (
          <>
            <Controller
              control={form.control}
              name="authorizationType"
              render={({ field }) => (
                <Radio.Group
                  label={t('webChannel.authorizationType')}
                  required
                  value={field.value ? String(field.value) : null}
                  onChange={(value) => field.onChange(Number(value) as AuthorizationType)}
                  error={fieldError('authorizationType')}
                >
                  <Group mt={6}>
                    {AUTHORIZATION_TYPES.map((value) => (
                      <Radio key={value} value={String(value)} label={t(AUTHORIZATION_LABELS[value])} />
                    ))}
                  </Group>
                </Radio.Group>
              )}
            />
            <MultiTextFields
              label={t('webChannel.authorizationText')}
              description={t('webChannel.authorizationTextHint')}
              languages={languages}
              textarea
              register={(lang) => form.register(`authorizationText.${lang}`)}
              error={(lang) => fieldError(`authorizationText.${lang}`)}
            />
            {type === 1 && (
              <PasswordInput
                label={t('webChannel.password')}
                description={hasPassword ? t('webChannel.passwordKeepHint') : t('webChannel.passwordHint')}
                required={!hasPassword}
                autoComplete="new-password"
                maw={360}
                {...form.register('password')}
                error={fieldError('password')}
              />
            )}
            {type === 2 && <ChannelUsers form={form} fieldError={fieldError} />}
          </>
        )}
      </FormFields>
      {/* outside the disabled fields: its usage logs and export stay open to a user who may only look */}
      {withAuthorization && type === 3 && <ExternalCodes form={form} fieldError={fieldError} channel={channel} />}
    </Stack>
  );
}
