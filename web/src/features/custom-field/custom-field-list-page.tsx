import { hasRight } from '@accredo/domain';
import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { localized } from '../../api/action';
import { CUSTOM_FIELD_LIST_KEY, type CustomFieldDto, customFieldApi } from '../../api/custom-field';
import { useAdminSession } from '../../app/admin-session';
import { notifyError, notifySuccess } from '../../app/notify';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { useFieldTypeName } from '../action/basic-tab';
import { EditLink } from '../../components/edit-link';

/** Copies a field's template placeholder (spec §2 Other forms: the custom field list). */
export async function copyPlaceholder(placeholder: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(placeholder);
    notifySuccess('basics.copied');
  } catch {
    notifyError('customField.copyError');
  }
}

/** `/custom-field` (spec §2 Other forms): the user fields with their types and options. */
export function CustomFieldListPage() {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const typeName = useFieldTypeName();
  const fields = useQuery({ queryKey: CUSTOM_FIELD_LIST_KEY, queryFn: customFieldApi.list });

  const columns: DataTableColumn<CustomFieldDto>[] = [
    { key: 'name', header: t('customField.name'), render: (f) => f.name },
    { key: 'label', header: t('customField.label'), render: (f) => localized(f.label, i18n.language) },
    { key: 'type', header: t('customField.type'), render: (f) => typeName(f.customFieldType.id) },
    {
      key: 'options',
      header: t('customField.options'),
      render: (f) => f.options.map((o) => o.value).join(', ') || t('basics.dash'),
    },
    {
      key: 'actions',
      header: t('basics.options'),
      render: (f) => (
        <Group gap="xs" wrap="nowrap">
          <EditLink to={`/custom-field/detail/${f.id}`} name={f.name} />
          <Tooltip label={`${t('customField.copyPlaceholder')}: ${f.placeholder}`}>
            <ActionIcon
              variant="subtle"
              aria-label={`${t('customField.copyPlaceholder')}: ${f.name}`}
              onClick={() => void copyPlaceholder(f.placeholder)}
            >
              <IconCopy size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader title={t('customField.title')}>
        {hasRight(session, 'customField', 'create') && (
          <Button component={Link} to="/custom-field/create" leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <DataTable
        label={t('customField.title')}
        columns={columns}
        rows={fields.data}
        getRowId={(f) => f.id}
        loading={fields.isPending}
        error={fields.isError ? t('customField.listError') : undefined}
        onOpen={(f) => navigate(`/custom-field/detail/${f.id}`)}
      />
    </>
  );
}
