import { type AdminUser, effectiveLanguage, profileSchema } from '@accredo/domain';
import { isLanguage, type Language, LANGUAGES } from '@accredo/i18n';
import { zodResolver } from '@hookform/resolvers/zod';
import { PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { adminApi, type ProfilePayload } from '../../api/admin';
import { useAdminSession } from '../../app/admin-session';
import { applyLanguage } from '../../app/i18n';
import { notifySuccess } from '../../app/notify';
import { FormShell, useFieldError, SelectField } from '../../components/form';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { useDetailQuery } from '../../components/use-detail-query';

interface ProfileValues {
  name: string;
  language: Language;
  password: string;
  confirmPassword: string;
}

const profileValues = (user: AdminUser, multiLanguage: boolean): ProfileValues => ({
  name: user.name,
  language: effectiveLanguage(user.language, multiLanguage),
  password: '',
  confirmPassword: '',
});

/** `/user-profile`: name, language, and an optional new password with its confirmation. */
export function ProfilePage() {
  const query = useDetailQuery({
    queryKey: ['admin', 'actual'],
    queryFn: adminApi.getActual,
    listPath: '/',
    errorKey: 'basics.loadError',
  });
  if (!query.data) return <LoadingState />;
  return <ProfileForm user={query.data} />;
}

function ProfileForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const multiLanguage = session.subject.multiLanguage;
  const form = useForm<ProfileValues, unknown, ProfilePayload>({
    resolver: zodResolver(profileSchema) as unknown as Resolver<ProfileValues, unknown, ProfilePayload>,
    defaultValues: profileValues(user, multiLanguage),
  });
  const fieldError = useFieldError(form.formState.errors);

  const save = async (values: ProfilePayload) => {
    const payload: ProfilePayload = {
      ...values,
      confirmPassword: values.password ? values.confirmPassword : undefined,
    };
    const saved = await adminApi.updateActual(payload);
    queryClient.setQueryData(['admin', 'actual'], saved);
    if (multiLanguage && isLanguage(saved.language)) applyLanguage(saved.language);
    notifySuccess('profile.saved');
    return { values: profileValues(saved, multiLanguage) };
  };

  return (
    <FormShell form={form} onSave={save}>
      <PageHeader title={t('profile.title')} />
      <Stack gap="sm" maw={520}>
        <TextInput label={t('adminUser.login')} value={user.login} readOnly variant="filled" />
        <TextInput label={t('basics.name')} required {...form.register('name')} error={fieldError('name')} />
        {multiLanguage && (
          <SelectField
            control={form.control}
            name="language"
            label={t('profile.language')}
            allowDeselect={false}
            data={LANGUAGES.map((lang) => ({ value: lang, label: t(`lang.${lang}`) }))}
            empty={'cs'}
          />
        )}
        <Text size="sm" c="dimmed" mt="sm">
          {t('profile.passwordHint')}
        </Text>
        <PasswordInput
          label={t('basics.newPassword')}
          autoComplete="new-password"
          {...form.register('password')}
          error={fieldError('password')}
        />
        <PasswordInput
          label={t('basics.confirmPassword')}
          autoComplete="new-password"
          {...form.register('confirmPassword')}
          error={fieldError('confirmPassword')}
        />
      </Stack>
    </FormShell>
  );
}
