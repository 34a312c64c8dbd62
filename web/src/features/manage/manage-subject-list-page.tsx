import type { Subject } from '@accredo/domain';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { manageApi } from '../../api/manage';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { YesNo } from '../admin-user/admin-user-list-page';
import { useExtensionNames } from '../subject/subject-page';
import { EditLink } from '../../components/edit-link';

/** `/manage` and `/manage/subject`: every subject of the provider. */
export function ManageSubjectListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const extensionNames = useExtensionNames();
  const subjects = useQuery({ queryKey: ['manage', 'subject'], queryFn: manageApi.subjects });
  const columns: DataTableColumn<Subject>[] = [
    { key: 'name', header: t('subject.name'), render: (s) => s.name },
    { key: 'key', header: t('subject.key'), render: (s) => s.key },
    { key: 'pathToFiles', header: t('subject.pathToFiles'), render: (s) => s.pathToFiles },
    { key: 'multiLanguage', header: t('subject.multiLanguage'), render: (s) => <YesNo value={s.multiLanguage} /> },
    { key: 'extensions', header: t('subject.extensions'), render: (s) => extensionNames(s.extensions) },
    {
      key: 'options',
      header: t('basics.options'),
      render: (s) => <EditLink to={`/manage/subject/detail/${s.id}`} name={s.name} />,
    },
  ];
  return (
    <>
      <PageHeader title={t('manage.subjects')}>
        <Button component={Link} to="/manage/subject/create" leftSection={<IconPlus size={16} />}>
          {t('basics.add')}
        </Button>
      </PageHeader>
      <DataTable
        label={t('manage.subjects')}
        columns={columns}
        rows={subjects.data}
        getRowId={(s) => s.id}
        loading={subjects.isPending}
        error={subjects.isError ? t('manage.subjectsLoadError') : undefined}
        onOpen={(s) => navigate(`/manage/subject/detail/${s.id}`)}
      />
    </>
  );
}
