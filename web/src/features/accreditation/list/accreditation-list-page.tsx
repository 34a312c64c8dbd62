import { DEFAULT_PAGE_SIZE, hasRight, withoutArchived } from '@accredo/domain';
import { Alert, Avatar, Badge, Button, Checkbox, Group, Menu, Text } from '@mantine/core';
import {
  IconCalendar,
  IconChevronDown,
  IconFilter,
  IconMapPin,
  IconPlus,
  IconCopy,
  IconFileExport,
  IconPhotoDown,
  IconFileImport,
  IconMail,
  IconPrinter,
  IconFileTypePdf,
  IconReplace,
  IconTrash,
  IconUsersGroup,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  ACCREDITATION_LIST_KEY,
  type AccreditationFilterData,
  type AccreditationRow,
  type ActionField,
  accreditationListApi,
  type BulkTarget,
  EMPTY_FILTER,
} from '../../../api/accreditation-list';
import { groupsApi } from '../../../api/groups';
import { zoneApi } from '../../../api/zone';
import { useAdminSession } from '../../../app/admin-session';
import { type DataTableColumn, SelectableTable, TableFooter } from '../../../components/data-table';
import { LoadingState } from '../../../components/loading-state';
import { PageHeader } from '../../../components/page-header';
import { useCurrentAction } from '../../action/use-current-action';
import { useExportAccreditations, useExportForImport, useExportImages } from '../import/use-export';
import { BulkModal, type BulkKind } from './bulk-modals';
import { FilterPanel, type Option } from './filter-panel';
import { readStoredFilter, writeStoredFilter } from './filter-storage';
import { RowHistory } from './row-history';
import { SendMailModal } from './send-mail-modal';
import { usePdfBadges } from './use-pdf';
import { PrintOptionsModal } from './print-options-modal';
import { usePrintBadges } from './use-print';

const EDITABLE = 'input:not([type="checkbox"]):not([type="radio"]), textarea, select, [contenteditable="true"]';

const NO_FIELDS: ActionField[] = [];

/** `/accreditation` (spec §2 Accreditation list): the accreditations of the current action. */
export function AccreditationListPage() {
  const { t } = useTranslation();
  const session = useAdminSession();
  const current = useCurrentAction();

  let body: ReactNode;
  if (current.isLoading) body = <LoadingState />;
  else if (current.actionId === null)
    body = (
      <Alert color="blue" title={t('accreditation.noActionTitle')}>
        {t('accreditation.noAction')}
      </Alert>
    );
  else body = <AccreditationList key={current.actionId} actionId={current.actionId} />;

  return (
    <>
      <PageHeader title={t('accreditation.title')}>
        {hasRight(session, 'user', 'createUser') && current.actionId !== null && (
          <Button component={Link} to="/accreditation/create" leftSection={<IconPlus size={16} />}>
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      {body}
    </>
  );
}

function AccreditationList({ actionId }: { actionId: number }) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const [filter, setFilter] = useState<AccreditationFilterData | null>(() => readStoredFilter(actionId));
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  // past the server's count cap the list says "10,000+" until this asks for the exact count
  const [exactCount, setExactCount] = useState(false);
  const [selection, setSelection] = useState<Set<number>>(() => new Set());
  const [allSelected, setAllSelected] = useState(false);
  const [anchor, setAnchor] = useState<number | null>(null);
  const [filterOpen, setFilterOpen] = useState(false);
  const [bulk, setBulk] = useState<BulkKind | null>(null);
  const [mailOpen, setMailOpen] = useState(false);
  const [printOptionsOpen, setPrintOptionsOpen] = useState(false);
  const exporter = useExportAccreditations();
  const imageExporter = useExportImages();
  const importExporter = useExportForImport();

  const list = useQuery({
    queryKey: [...ACCREDITATION_LIST_KEY, { actionId, page, pageSize, filter, exactCount }],
    queryFn: ({ signal }) =>
      accreditationListApi.list({ actionId, page, pageSize, filterData: filter, exactCount }, signal),
    placeholderData: keepPreviousData,
  });
  const groupsQuery = useQuery({ queryKey: ['admin', 'groups'], queryFn: groupsApi.list });
  const zonesQuery = useQuery({ queryKey: ['admin', 'zone'], queryFn: zoneApi.list });

  const groups: Option[] = useMemo(
    () =>
      (groupsQuery.data ?? [])
        .filter((g) => g.actionId === actionId)
        .map((g) => ({ value: String(g.id), label: g.name })),
    [groupsQuery.data, actionId],
  );
  // the bulk assignment offers no archived group (issue 15); the filter still finds their people
  const activeGroups: Option[] = useMemo(
    () =>
      withoutArchived(groupsQuery.data ?? [])
        .filter((g) => g.actionId === actionId)
        .map((g) => ({ value: String(g.id), label: g.name })),
    [groupsQuery.data, actionId],
  );
  const zones: Option[] = useMemo(
    () =>
      (zonesQuery.data ?? [])
        .filter((z) => z.actionId === actionId)
        .map((z) => ({ value: String(z.id), label: z.name })),
    [zonesQuery.data, actionId],
  );

  const fields: ActionField[] = list.data?.customField ?? NO_FIELDS;
  const rows = list.data?.data ?? [];
  const max = list.data?.max ?? 0;
  const maxCapped = list.data?.maxCapped ?? false;
  /** the count as shown: "10,000+" past the cap */
  const maxText = maxCapped ? `${new Intl.NumberFormat(i18n.language).format(max)}+` : String(max);
  const pageCount = Math.max(1, Math.ceil(max / pageSize));
  const selectedCount = allSelected ? max : selection.size;

  // what a bulk change over everyone (select-all, Ctrl+A) reaches is said as a number: count it
  useEffect(() => {
    if (allSelected && maxCapped) setExactCount(true);
  }, [allSelected, maxCapped]);

  // a page beyond the end (after a delete or a smaller filter) falls back to the last one
  useEffect(() => {
    if (list.data && page > pageCount) setPage(pageCount);
  }, [list.data, page, pageCount]);

  // Ctrl/Cmd+A toggles select-all (spec §2 Layout)
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== 'a' || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest?.(EDITABLE) || document.querySelector('[role="dialog"]')) return;
      event.preventDefault();
      setAllSelected((all) => !all);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const clearSelection = () => {
    setSelection(new Set());
    setAllSelected(false);
    setAnchor(null);
  };

  const applyFilter = (next: AccreditationFilterData | null) => {
    setFilter(next);
    writeStoredFilter(actionId, next);
    setPage(1);
    setExactCount(false);
    clearSelection();
    setFilterOpen(false);
  };

  const select = (index: number, range: boolean) => {
    const next = new Set(selection);
    if (range && anchor !== null && anchor < rows.length) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (let i = from; i <= to; i += 1) next.add(rows[i].id);
    } else {
      const id = rows[index].id;
      if (next.has(id)) next.delete(id);
      else next.add(id);
    }
    setAnchor(index);
    setAllSelected(false);
    setSelection(next);
  };

  const target: BulkTarget = {
    actionId,
    userId: allSelected ? [] : [...selection],
    all: allSelected,
    filterData: filter ?? EMPTY_FILTER,
  };

  const can = (action: string) => hasRight(session, 'user', action);
  const printer = usePrintBadges(target, can('getUserPrintData'), () => {
    void queryClient.invalidateQueries({ queryKey: ACCREDITATION_LIST_KEY });
  });
  const pdf = usePdfBadges(() => {
    void queryClient.invalidateQueries({ queryKey: ACCREDITATION_LIST_KEY });
  });
  const menuItems: { kind: BulkKind; right: string; label: string; icon: ReactNode }[] = [
    {
      kind: 'groups',
      right: 'assignUserToGroups',
      label: 'accreditation.assignGroup',
      icon: <IconUsersGroup size={16} />,
    },
    { kind: 'zones', right: 'assignZone', label: 'accreditation.assignZones', icon: <IconMapPin size={16} /> },
    { kind: 'days', right: 'assignDays', label: 'accreditation.assignDays', icon: <IconCalendar size={16} /> },
    { kind: 'copy', right: 'copyUserToAction', label: 'accreditation.copy', icon: <IconCopy size={16} /> },
    { kind: 'delete', right: 'deleteUser', label: 'accreditation.delete', icon: <IconTrash size={16} /> },
  ];

  const columns: DataTableColumn<AccreditationRow>[] = [
    {
      key: 'photo',
      header: t('accreditation.photo'),
      width: 64,
      render: (r) => (
        <Avatar
          src={r.image?.path ?? null}
          alt={t('accreditation.photoOf', { name: `${r.firstname} ${r.lastname}` })}
          radius="sm"
          size="md"
        >
          {`${r.firstname.charAt(0)}${r.lastname.charAt(0)}`.toUpperCase()}
        </Avatar>
      ),
    },
    { key: 'customId', header: t('accreditation.customId'), width: 80, render: (r) => r.customId },
    { key: 'firstname', header: t('accreditation.firstname'), render: (r) => r.firstname },
    { key: 'lastname', header: t('accreditation.lastname'), render: (r) => r.lastname },
    { key: 'email', header: t('accreditation.email'), render: (r) => r.email },
    {
      key: 'groups',
      header: t('accreditation.groups'),
      render: (r) => (r.groups.length ? r.groups.map((g) => g.name).join(', ') : t('basics.dash')),
    },
    {
      key: 'zones',
      header: t('accreditation.zones'),
      render: (r) => (r.zones.length ? r.zones.map((z) => z.name).join(', ') : t('basics.dash')),
    },
    { key: 'printCount', header: t('accreditation.printCount'), width: 90, render: (r) => r.printCount },
    { key: 'history', header: t('accreditationHistory.history'), width: 48, render: (r) => <RowHistory row={r} /> },
  ];

  let content: ReactNode;
  if (list.isPending) content = <LoadingState />;
  else if (list.isError)
    content = (
      <Alert color="red" role="alert" my="md">
        {t('accreditation.loadError')}
      </Alert>
    );
  else if (rows.length === 0)
    content = (
      <Text c="dimmed" ta="center" py="xl">
        {t('basics.noData')}
      </Text>
    );
  else
    content = (
      <SelectableTable
        label={t('accreditation.listLabel')}
        columns={columns}
        rows={rows}
        getRowId={(row) => row.id}
        minWidth={700}
        isSelected={(row) => allSelected || selection.has(row.id)}
        onSelect={select}
        onOpen={(row) => navigate(`/accreditation/detail/${row.id}`)}
      />
    );

  return (
    <>
      <Group justify="space-between" mb="sm" gap="sm">
        <Group gap="sm">
          <Menu position="bottom-start" withinPortal>
            <Menu.Target>
              <Button variant="default" rightSection={<IconChevronDown size={14} />}>
                {t('basics.options')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {can('filterUser') && (
                <Menu.Item leftSection={<IconFilter size={16} />} onClick={() => setFilterOpen(true)}>
                  {t('accreditation.openFilter')}
                </Menu.Item>
              )}
              {hasRight(session, 'userImport', 'importUser') && (
                <Menu.Item leftSection={<IconFileImport size={16} />} onClick={() => navigate('/accreditation/import')}>
                  {t('accreditationImport.menuImport')}
                </Menu.Item>
              )}
              {can('exportUser') && (
                <Menu.Item
                  leftSection={<IconFileExport size={16} />}
                  disabled={exporter.isPending}
                  onClick={() => exporter.run(target)}
                >
                  {t(exporter.isPending ? 'accreditationImport.exporting' : 'accreditationImport.menuExport')}
                </Menu.Item>
              )}
              {can('exportUser') && (
                <Menu.Item
                  leftSection={<IconFileExport size={16} />}
                  disabled={importExporter.isPending}
                  onClick={() => importExporter.run(target)}
                >
                  {t(
                    importExporter.isPending
                      ? 'accreditationImport.exporting'
                      : 'accreditationImport.menuExportForImport',
                  )}
                </Menu.Item>
              )}
              {can('exportUser') && (
                <Menu.Item
                  leftSection={<IconPhotoDown size={16} />}
                  disabled={imageExporter.isPending}
                  onClick={() => imageExporter.run(target)}
                >
                  {t(imageExporter.isPending ? 'accreditationImport.exporting' : 'imageImport.menuExportImages')}
                </Menu.Item>
              )}
              {can('getUserPrintData') && (
                <Menu.Item
                  leftSection={<IconPrinter size={16} />}
                  disabled={printer.isPending}
                  onClick={() => printer.run(target)}
                >
                  {t(printer.isPending ? 'templateEngine.printing' : 'templateEngine.print')}
                </Menu.Item>
              )}
              {can('getUserPrintData') && (
                <Menu.Item
                  leftSection={<IconFileTypePdf size={16} />}
                  disabled={pdf.isPending}
                  onClick={() => pdf.run(target)}
                >
                  {t(pdf.isPending ? 'templateEngine.generatingPdf' : 'templateEngine.generatePdf')}
                </Menu.Item>
              )}
              {can('getUserPrintData') && (
                <Menu.Item
                  leftSection={<IconReplace size={16} />}
                  disabled={printer.isPending || pdf.isPending}
                  onClick={() => setPrintOptionsOpen(true)}
                >
                  {t('templateEngine.printOptions')}
                </Menu.Item>
              )}
              {hasRight(session, 'emailQueue', 'sendMail') && (
                <Menu.Item leftSection={<IconMail size={16} />} onClick={() => setMailOpen(true)}>
                  {t('mail.send.menu')}
                </Menu.Item>
              )}
              {menuItems
                .filter((item) => can(item.right))
                .map((item) => (
                  <Menu.Item
                    key={item.kind}
                    leftSection={item.icon}
                    color={item.kind === 'delete' ? 'red.8' : undefined}
                    onClick={() => setBulk(item.kind)}
                  >
                    {t(item.label)}
                  </Menu.Item>
                ))}
            </Menu.Dropdown>
          </Menu>
          {can('filterUser') && (
            <Button variant="light" leftSection={<IconFilter size={16} />} onClick={() => setFilterOpen(true)}>
              {t('accreditation.filter')}
            </Button>
          )}
          {filter && (
            <>
              <Badge variant="light" size="lg">
                {t('accreditation.filtered')}
              </Badge>
              <Button variant="subtle" onClick={() => applyFilter(null)}>
                {t('accreditation.showAll')}
              </Button>
            </>
          )}
        </Group>
        <Group gap="xs">
          {maxCapped && (
            <Button variant="subtle" size="xs" onClick={() => setExactCount(true)}>
              {t('accreditation.countExactly')}
            </Button>
          )}
          <Checkbox
            label={t('accreditation.selectAll', { count: maxText })}
            checked={allSelected}
            disabled={max === 0}
            onChange={(event) => {
              const checked = event.currentTarget.checked;
              setAllSelected(checked);
              if (!checked) setSelection(new Set());
            }}
          />
        </Group>
      </Group>

      {content}

      {!list.isPending && !list.isError && (
        <TableFooter
          selected={selectedCount}
          total={max}
          totalText={maxCapped ? maxText : undefined}
          paging={{
            page,
            pageCount,
            pageSize,
            setPage,
            setPageSize,
          }}
        />
      )}

      <FilterPanel
        opened={filterOpen}
        onClose={() => setFilterOpen(false)}
        value={filter}
        fields={fields}
        groups={groups}
        zones={zones}
        onApply={applyFilter}
        onShowAll={() => applyFilter(null)}
      />
      {printer.modal}
      {pdf.modal}
      <PrintOptionsModal
        opened={printOptionsOpen}
        count={selectedCount}
        onClose={() => setPrintOptionsOpen(false)}
        onPrint={(options) => printer.run(target, options)}
        onPdf={(options) => pdf.run(target, options)}
      />
      <SendMailModal
        opened={mailOpen}
        onClose={() => setMailOpen(false)}
        target={target}
        count={selectedCount}
        onDone={() => {
          setMailOpen(false);
          void queryClient.invalidateQueries({ queryKey: ACCREDITATION_LIST_KEY });
        }}
      />
      <BulkModal
        kind={bulk}
        onClose={() => setBulk(null)}
        target={target}
        count={selectedCount}
        groups={activeGroups}
        zones={zones}
        onDone={(kind) => {
          setBulk(null);
          if (kind === 'delete') clearSelection();
          void queryClient.invalidateQueries({ queryKey: ACCREDITATION_LIST_KEY });
        }}
      />
    </>
  );
}
