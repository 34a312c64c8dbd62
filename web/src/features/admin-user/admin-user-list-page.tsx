import { localized } from '../../api/action';
import { type AdminUser, hasRight } from '@accredo/domain';
import { Badge, Button, Group } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { adminApi } from '../../api/admin';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { WorkingButton } from '../../components/working-button';
import { EditLink } from '../../components/edit-link';

export function YesNo({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={value ? 'teal' : 'gray'} variant="light">
      {value ? t('basics.yes') : t('basics.no')}
    </Badge>
  );
}

/** `/admin-user` (spec §2 Other forms: admin user list). */
export function AdminUserListPage() {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: ['admin', 'admin-user'], queryFn: adminApi.adminUsers });
  const verify = useMutation({
    mutationFn: adminApi.verifyAdminUser,
    onSuccess: () => {
      notifySuccess('adminUser.verifiedOk');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'admin-user'] });
    },
    onError: () => notifyError('adminUser.verfiingError'),
  });

  const columns: DataTableColumn<AdminUser>[] = [
    { key: 'login', header: t('adminUser.login'), render: (u) => u.login },
    { key: 'name', header: t('basics.name'), render: (u) => u.name },
    {
      key: 'lastAction',
      header: t('adminUser.lastAction'),
      render: (u) => localized(u.lastActionName, i18n.language) || t('basics.dash'),
    },
    { key: 'active', header: t('basics.active'), render: (u) => <YesNo value={u.active} /> },
    { key: 'verified', header: t('adminUser.verified'), render: (u) => <YesNo value={u.verified} /> },
    {
      key: 'options',
      header: t('basics.options'),
      render: (u) => (
        <Group gap="xs" wrap="nowrap">
          <EditLink to={`/admin-user/detail/${u.id}`} name={u.login} />
          {session.manageuser && !u.verified && (
            <WorkingButton
              size="compact-xs"
              variant="light"
              busy={verify.isPending && verify.variables === u.id}
              onClick={() => verify.mutate(u.id)}
              aria-label={`${t('adminUser.verify')}: ${u.login}`}
            >
              {t('adminUser.verify')}
            </WorkingButton>
          )}
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('adminUser.title')}>
        {hasRight(session, 'adminUser', 'create') && (
          <Button component={Link} to="/admin-user/create" leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <DataTable
        label={t('adminUser.title')}
        columns={columns}
        rows={users.data}
        getRowId={(u) => u.id}
        loading={users.isPending}
        error={users.isError ? t('adminUser.loadingError') : undefined}
        onOpen={(u) => navigate(`/admin-user/detail/${u.id}`)}
      />
    </>
  );
}
