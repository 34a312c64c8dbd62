import {
  type AdminUser,
  buildRights,
  manageAdminUserCreateSchema,
  manageAdminUserUpdateSchema,
  normalizeRights,
  type Rights,
} from '@accredo/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Select, Stack, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type ManageAdminUserPayload, manageApi } from '../../api/manage';
import { notifySuccess } from '../../app/notify';
import { FormShell, BooleanField, useFieldError } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { AccountFields, onUserExist } from '../admin-user/account-fields';
import { RightsEditor } from '../admin-user/rights-editor';
import { RecordPage } from '../../components/record-page';

interface ManageAdminUserValues {
  subjectId: number | null;
  login: string;
  password: string;
  name: string;
  active: boolean;
  superuser: boolean;
  manageuser: boolean;
  actionId: number | null;
  rights: Rights;
}

const userValues = (user?: AdminUser, subjectId?: number): ManageAdminUserValues => ({
  subjectId: user?.subjectId ?? subjectId ?? null,
  login: user?.login ?? '',
  password: '',
  name: user?.name ?? '',
  active: user?.active ?? true,
  // The first admin of a subject is usually its superuser, so a new one starts with the switch on.
  superuser: user?.superuser ?? true,
  manageuser: user?.manageuser ?? false,
  actionId: user?.actionId ?? null,
  rights: user ? normalizeRights(user.rights) : buildRights(false),
});

/** `/manage/admin-user/create` and `/manage/admin-user/detail/:id`: basic info and rights. */
export function ManageAdminUserDetailPage() {
  return (
    <RecordPage
      queryKey={(id) => ['manage', 'admin-user', 'detail', id]}
      get={(id) => manageApi.adminUser(id)}
      listPath="/manage/admin-user"
      errorKey="manage.adminUsersLoadError"
      notFoundPath="/manage"
      render={(record) => <ManageAdminUserForm user={record} />}
    />
  );
}

function ManageAdminUserForm({ user }: { user?: AdminUser }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const isCreate = !user;
  const subjects = useQuery({ queryKey: ['manage', 'subject'], queryFn: manageApi.subjects });
  const form = useForm<ManageAdminUserValues, unknown, ManageAdminUserPayload>({
    resolver: zodResolver(isCreate ? manageAdminUserCreateSchema : manageAdminUserUpdateSchema) as unknown as Resolver<
      ManageAdminUserValues,
      unknown,
      ManageAdminUserPayload
    >,
    defaultValues: userValues(user, Number(search.get('subjectId')) || undefined),
  });
  const fieldError = useFieldError(form.formState.errors);
  const allRights = form.watch('superuser') || form.watch('manageuser');

  const save = async (values: ManageAdminUserPayload) => {
    void queryClient.invalidateQueries({ queryKey: ['manage', 'admin-user'] });
    if (!user) {
      const created = await manageApi.createAdminUser(values);
      notifySuccess('manage.adminUserCreated');
      return { navigateTo: `/manage/admin-user/detail/${created.id}` };
    }
    const saved = await manageApi.updateAdminUser(user.id, values);
    notifySuccess('manage.adminUserSaved');
    return { values: userValues(saved) };
  };

  const switchField = (name: 'active' | 'superuser' | 'manageuser', label: string) => (
    <BooleanField control={form.control} name={name} label={label} />
  );

  return (
    <FormShell form={form} onSave={save} onError={onUserExist(form)} saveErrorKey="manage.adminUserSaveError">
      <PageHeader title={isCreate ? t('adminUser.create') : `${t('adminUser.detail')}: ${user.login}`} />
      <Tabs defaultValue="basic">
        <Tabs.List mb="md">
          <Tabs.Tab value="basic">{t('manage.tabBasic')}</Tabs.Tab>
          <Tabs.Tab value="rights">{t('adminUser.tabRights')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="basic">
          <Stack gap="sm" maw={520}>
            <Controller
              control={form.control}
              name="subjectId"
              render={({ field }) => (
                <Select<number>
                  label={t('manage.subject')}
                  required
                  searchable
                  allowDeselect={false}
                  data={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldError('subjectId')}
                />
              )}
            />
            <AccountFields form={form} isCreate={isCreate} />
            {switchField('active', t('basics.active'))}
            {switchField('superuser', t('adminUser.superuser'))}
            {switchField('manageuser', t('adminUser.manageuser'))}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="rights">
          {allRights ? (
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
    </FormShell>
  );
}
