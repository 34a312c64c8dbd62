import { hasRight, withoutArchived } from '@accredo/domain';
import {
  type AdminUser,
  adminUserCreateSchema,
  adminUserUpdateSchema,
  buildRights,
  normalizeRights,
  type Rights,
} from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Group, Select, Stack, Tabs } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ACTION_LIST_KEY, actionApi, localized } from '../../api/action';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type AdminUserPayload, adminApi } from '../../api/admin';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { FormShell, BooleanField, useFieldError } from '../../components/form';
import { DeleteRecordButton } from '../../components/delete-record-button';
import { PageHeader } from '../../components/page-header';
import { WorkingButton } from '../../components/working-button';
import { AccountFields, onUserExist } from './account-fields';
import { RightsEditor } from './rights-editor';
import { useViewOnly } from '../../components/require-right';
import { RecordPage } from '../../components/record-page';

export interface AdminUserFormValues {
  login: string;
  password: string;
  name: string;
  active: boolean;
  actionId: number | null;
  rights: Rights;
}

export function adminUserFormValues(user?: AdminUser): AdminUserFormValues {
  return {
    login: user?.login ?? '',
    password: '',
    name: user?.name ?? '',
    active: user?.active ?? true,
    actionId: user?.actionId ?? null,
    rights: user ? normalizeRights(user.rights) : buildRights(false),
  };
}

/** `/admin-user/create` and `/admin-user/detail/:id` (spec §2 Other forms: admin user form). */
export function AdminUserDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => ['admin', 'admin-user', id]}
      get={(id) => adminApi.adminUser(id)}
      listPath="/admin-user"
      errorKey="adminUser.loadingError"
      render={(record) => <AdminUserForm user={record} />}
    />
  );
}

function AdminUserForm({ user }: { user?: AdminUser }) {
  const { t, i18n } = useTranslation();
  const viewOnly = useViewOnly('adminUser', Boolean(user));
  const session = useAdminSession();
  // The user's default action (spec §2 Other forms: action selector), among the subject's actions.
  const canListActions = hasRight(session, 'action', 'get');
  const actions = useQuery({ queryKey: ACTION_LIST_KEY, queryFn: actionApi.list, enabled: canListActions });
  const queryClient = useQueryClient();
  const isCreate = !user;
  const form = useForm<AdminUserFormValues, unknown, AdminUserPayload>({
    resolver: zodResolver(isCreate ? adminUserCreateSchema : adminUserUpdateSchema) as unknown as Resolver<
      AdminUserFormValues,
      unknown,
      AdminUserPayload
    >,
    defaultValues: adminUserFormValues(user),
  });
  const fieldError = useFieldError(form.formState.errors);
  // One's own account cannot be deleted (the server refuses with ADMIN_USER_DELETE_SELF): Delete shows
  // once the signed-in user is known to be someone else (or could not be loaded: the server still refuses).
  const me = useQuery({ queryKey: ['admin', 'actual'], queryFn: adminApi.getActual, enabled: !isCreate });
  const canDelete = !isCreate && (me.isError || (me.data !== undefined && me.data.id !== user.id));
  const showRights = !isCreate && (session.superuser || session.manageuser);

  const passwordRequest = useMutation({
    mutationFn: () => adminApi.adminUserPasswordRequest(user?.id ?? 0),
    onSuccess: () => notifySuccess('adminUser.passwordChangeSent'),
    onError: () => notifyError('adminUser.passwordChangeError'),
  });

  const save = async (values: AdminUserPayload) => {
    if (!user) {
      const created = await adminApi.createAdminUser(values);
      notifySuccess('adminUser.created');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'admin-user'] });
      return { navigateTo: `/admin-user/detail/${created.id}` };
    }
    const saved = await adminApi.updateAdminUser(user.id, values);
    notifySuccess('adminUser.saved');
    queryClient.setQueryData(['admin', 'admin-user', user.id], saved);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'admin-user'], exact: true });
    return { values: adminUserFormValues(saved) };
  };

  const info = (
    <Stack gap="sm" maw={520}>
      <AccountFields form={form} isCreate={isCreate} />
      <BooleanField control={form.control} name="active" label={t('basics.active')} />
      {canListActions && (
        <Controller
          control={form.control}
          name="actionId"
          render={({ field }) => (
            <Select<number>
              label={t('adminUser.action')}
              clearable
              searchable
              data={withoutArchived(actions.data ?? [], [field.value]).map((a) => ({
                value: a.id,
                label: localized(a.name, i18n.language),
              }))}
              value={field.value}
              onChange={(value) => field.onChange(value ?? null)}
              onBlur={field.onBlur}
              error={fieldError('actionId')}
            />
          )}
        />
      )}
    </Stack>
  );

  return (
    <FormShell
      form={form}
      readOnly={viewOnly}
      onSave={save}
      onError={onUserExist(form)}
      saveErrorKey="adminUser.saveError"
    >
      <PageHeader title={isCreate ? t('adminUser.create') : `${t('adminUser.detail')}: ${user.login}`}>
        {!isCreate && (
          <Group>
            <WorkingButton variant="default" busy={passwordRequest.isPending} onClick={() => passwordRequest.mutate()}>
              {t('adminUser.sendPasswordChange')}
            </WorkingButton>
            {canDelete && (
              <DeleteRecordButton
                page="adminUser"
                name={user.login}
                remove={() => adminApi.removeAdminUser(user.id)}
                listPath="/admin-user"
                queryKey={['admin', 'admin-user']}
                recordKey={['admin', 'admin-user', user.id]}
              />
            )}
          </Group>
        )}
      </PageHeader>
      {showRights ? (
        <Tabs defaultValue="info">
          <Tabs.List mb="md">
            <Tabs.Tab value="info">{t('adminUser.tabInfo')}</Tabs.Tab>
            <Tabs.Tab value="rights">{t('adminUser.tabRights')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="info">{info}</Tabs.Panel>
          <Tabs.Panel value="rights">
            {user?.superuser || user?.manageuser ? (
              <Alert color="blue">{t('adminUser.superuserRightsHint')}</Alert>
            ) : (
              <Controller
                control={form.control}
                name="rights"
                render={({ field }) => <RightsEditor value={field.value} onChange={field.onChange} />}
              />
            )}
          </Tabs.Panel>
        </Tabs>
      ) : (
        info
      )}
    </FormShell>
  );
}
