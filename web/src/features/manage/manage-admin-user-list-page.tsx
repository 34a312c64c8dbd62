import type { AdminUser } from '@accredo/domain';
import { Button, Group, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { manageApi } from '../../api/manage';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { YesNo } from '../admin-user/admin-user-list-page';
import { EditLink } from '../../components/edit-link';

/** `/manage/admin-user`: admin users of every subject, optionally of one. */
export function ManageAdminUserListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const subjectId = Number(params.get('subjectId')) || undefined;
  const subjects = useQuery({ queryKey: ['manage', 'subject'], queryFn: manageApi.subjects });
  const users = useQuery({
    queryKey: ['manage', 'admin-user', subjectId ?? 'all'],
    queryFn: () => manageApi.adminUsers(subjectId),
  });
  const subjectName = (id: number) => subjects.data?.find((s) => s.id === id)?.name ?? t('basics.dash');

  const columns: DataTableColumn<AdminUser>[] = [
    { key: 'login', header: t('adminUser.login'), render: (u) => u.login },
    { key: 'name', header: t('basics.name'), render: (u) => u.name },
    { key: 'subject', header: t('manage.subject'), render: (u) => u.subject?.name ?? subjectName(u.subjectId) },
    { key: 'active', header: t('basics.active'), render: (u) => <YesNo value={u.active} /> },
    { key: 'verified', header: t('adminUser.verified'), render: (u) => <YesNo value={u.verified} /> },
    { key: 'superuser', header: t('adminUser.superuser'), render: (u) => <YesNo value={u.superuser} /> },
    {
      key: 'options',
      header: t('basics.options'),
      render: (u) => <EditLink to={`/manage/admin-user/detail/${u.id}`} name={u.login} />,
    },
  ];

  return (
    <>
      <PageHeader title={t('manage.adminUsers')}>
        <Button
          component={Link}
          to={subjectId ? `/manage/admin-user/create?subjectId=${subjectId}` : '/manage/admin-user/create'}
          leftSection={<IconPlus size={16} />}
        >
          {t('basics.add')}
        </Button>
      </PageHeader>
      <Group mb="md">
        <Select<number>
          label={t('manage.subject')}
          placeholder={t('manage.allSubjects')}
          clearable
          searchable
          w={280}
          data={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={subjectId ?? null}
          onChange={(value) => setParams(value ? { subjectId: String(value) } : {})}
        />
      </Group>
      <DataTable
        label={t('manage.adminUsers')}
        columns={columns}
        rows={users.data}
        getRowId={(u) => u.id}
        loading={users.isPending}
        error={users.isError ? t('manage.adminUsersLoadError') : undefined}
        onOpen={(u) => navigate(`/manage/admin-user/detail/${u.id}`)}
      />
    </>
  );
}
