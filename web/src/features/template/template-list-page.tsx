import { hasRight } from '@accredo/domain';
import { Badge, Button, Group, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type MailTemplateDto, mailTemplateApi, type TemplateDto, templateApi } from '../../api/template';
import { useAdminSession } from '../../app/admin-session';
import { ArchivedBadge, useArchivedFilter } from '../../components/archive-record-button';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { pageSizeLabel } from './template-constants';
import { EditLink } from '../../components/edit-link';

export const TEMPLATES_KEY = ['admin', 'template'] as const;
export const MAIL_TEMPLATES_KEY = ['admin', 'mail-template'] as const;

type TemplateTab = 'mail' | 'accreditation';
const TABS: TemplateTab[] = ['mail', 'accreditation'];

/**
 * `/template` (spec §2): two tabs, mail templates and accreditation templates; Add goes to the
 * create route of the open tab.
 */
export function TemplateListPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const canBadges = hasRight(session, 'template', 'get');
  const canMails = hasRight(session, 'mailTemplate', 'get');
  // GET template answers both lists (template right); a mail-only admin reads GET mail-template.
  const lists = useQuery({ queryKey: TEMPLATES_KEY, queryFn: templateApi.lists, enabled: canBadges });
  const mailOnly = useQuery({
    queryKey: MAIL_TEMPLATES_KEY,
    queryFn: mailTemplateApi.list,
    enabled: !canBadges && canMails,
  });

  const offered = TABS.filter((tab) => (tab === 'mail' ? canMails : canBadges));
  const requested = params.get('tab') as TemplateTab | null;
  const tab: TemplateTab = requested && offered.includes(requested) ? requested : (offered[0] ?? 'mail');
  const setTab = (next: string | null) => {
    if (next) setParams({ tab: next }, { replace: true });
  };

  const mailQuery = canBadges ? lists : mailOnly;
  const mails = canBadges ? lists.data?.mail : mailOnly.data;
  // archived badge templates (issue 15) only with "Show archived"
  const archived = useArchivedFilter(lists.data?.accreditation);
  const badges = archived.visible;

  const mailColumns: DataTableColumn<MailTemplateDto>[] = [
    { key: 'name', header: t('basics.name'), render: (m) => m.name },
    { key: 'type', header: t('mailTemplate.type'), render: (m) => t(`mailTemplate.type${m.type}`) },
    { key: 'subject', header: t('mailTemplate.subjectFrom'), render: (m) => m.subjectFrom },
    {
      key: 'withAccreditation',
      header: t('mailTemplate.withAccreditation'),
      render: (m) => (
        <Badge color={m.withAccreditation ? 'teal' : 'gray'} variant="light">
          {m.withAccreditation ? t('basics.yes') : t('basics.no')}
        </Badge>
      ),
    },
    {
      key: 'options',
      header: t('basics.options'),
      render: (m) => <EditLink to={`/mail-template/detail/${m.id}`} name={m.name} />,
    },
  ];

  const badgeColumns: DataTableColumn<TemplateDto>[] = [
    {
      key: 'name',
      header: t('basics.name'),
      render: (x) => (
        <>
          {x.name}
          <ArchivedBadge archivedAt={x.archivedAt} />
        </>
      ),
    },
    { key: 'pageSize', header: t('template.pageSize'), render: (x) => pageSizeLabel(t, x.pageSize) },
    {
      key: 'options',
      header: t('basics.options'),
      render: (x) => <EditLink to={`/template/detail/${x.id}`} name={x.name} />,
    },
  ];

  const canCreate =
    tab === 'mail' ? hasRight(session, 'mailTemplate', 'create') : hasRight(session, 'template', 'create');
  const createPath = tab === 'mail' ? '/mail-template/create' : '/template/create';

  return (
    <>
      <PageHeader title={t('template.title')}>
        {canCreate && (
          <Button component={Link} to={createPath} leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md" aria-label={t('template.title')}>
          {offered.includes('mail') && <Tabs.Tab value="mail">{t('template.tabMail')}</Tabs.Tab>}
          {offered.includes('accreditation') && (
            <Tabs.Tab value="accreditation">{t('template.tabAccreditation')}</Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="mail">
          <DataTable
            label={t('template.tabMail')}
            columns={mailColumns}
            rows={mails}
            getRowId={(m) => m.id}
            loading={mailQuery.isPending}
            error={mailQuery.isError ? t('template.loadListError') : undefined}
            onOpen={(m) => navigate(`/mail-template/detail/${m.id}`)}
          />
        </Tabs.Panel>
        <Tabs.Panel value="accreditation">
          {archived.toggle && <Group mb="sm">{archived.toggle}</Group>}
          <DataTable
            label={t('template.tabAccreditation')}
            columns={badgeColumns}
            rows={badges}
            getRowId={(x) => x.id}
            loading={lists.isPending}
            error={lists.isError ? t('template.loadListError') : undefined}
            onOpen={(x) => navigate(`/template/detail/${x.id}`)}
          />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
