import { PasswordInput, TextInput } from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { notifyError } from '../../app/notify';
import { useFieldError } from '../../components/form';

/** The sign-in part of an admin user (the subject admins' form and the operators' form). */
export interface AccountValues extends FieldValues {
  login: string;
  password: string;
  name: string;
}

/** Login (an e-mail), password (kept when left empty on an existing user) and name. */
export function AccountFields<TValues extends AccountValues, TOut>({
  form,
  isCreate,
}: {
  form: UseFormReturn<TValues, unknown, TOut>;
  isCreate: boolean;
}) {
  const { t } = useTranslation();
  const fieldError = useFieldError(form.formState.errors);
  const field = (name: keyof AccountValues) => form.register(name as Path<TValues>);
  return (
    <>
      <TextInput
        label={t('adminUser.login')}
        type="email"
        required
        autoComplete="off"
        {...field('login')}
        error={fieldError('login')}
      />
      <PasswordInput
        label={t('basics.password')}
        description={isCreate ? undefined : t('adminUser.passwordKeepHint')}
        required={isCreate}
        autoComplete="new-password"
        {...field('password')}
        error={fieldError('password')}
      />
      <TextInput label={t('basics.name')} required {...field('name')} error={fieldError('name')} />
    </>
  );
}

/** The save error handler of an admin user form: USER_EXIST is said on the login field (spec §8). */
export function onUserExist<TValues extends AccountValues, TOut>(form: UseFormReturn<TValues, unknown, TOut>) {
  return (error: unknown) => {
    if (!isApiError(error, 'USER_EXIST')) return false;
    form.setError('login' as Path<TValues>, { type: 'server', message: 'errors.USER_EXIST' }, { shouldFocus: true });
    notifyError('errors.USER_EXIST');
    return true;
  };
}
