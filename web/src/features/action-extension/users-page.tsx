import {
  DEFAULT_PAGE_SIZE,
  EXTENSION_MEAL,
  EXTENSION_ROUTE,
  type ExtensionData,
  type ExtensionItemView,
  type ExtensionType,
  type ExtensionUserRow,
  hasRight,
  type UserExtensionItemInput,
  type UserExtensionItemView,
} from '@accredo/domain';
import { Alert, Badge, Button, Group, Select, Stack, Switch, Table, Tabs, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLock, IconUsersPlus } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { localized } from '../../api/action';
import { extensionApi } from '../../api/action-extension';
import { groupsApi } from '../../api/groups';
import { useAdminSession } from '../../app/admin-session';
import { notifySuccess } from '../../app/notify';
import { type DataTableColumn, SelectableTable, TableFooter } from '../../components/data-table';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { useDetailQuery } from '../../components/use-detail-query';
import { formatDay } from '../action/date-tab';
import { AssignModal } from './assign-modal';
import { extensionTabs, tabKey, tabOfItem, tabValue } from './edit-form-values';
import { EXTENSION_SLUGS, type ExtensionSlug, extensionKey, notifyExtensionError } from './shared';

/** `/action-extension/{meal|parking}/{actionId}/users` (spec §2): the people of the action and their items. */
export function ExtensionUsersPage({ slug }: { slug: ExtensionSlug }) {
  const type: ExtensionType = EXTENSION_SLUGS[slug];
  const actionId = Number(useParams().actionId);
  const query = useDetailQuery({
    queryKey: extensionKey(type, actionId),
    queryFn: () => extensionApi.get(type, actionId),
    listPath: `/action-extension/${EXTENSION_ROUTE[type]}`,
    errorKey: 'extension.loadError',
  });
  if (!query.data) return <LoadingState />;
  return <UsersScreen key={actionId} type={type} data={query.data} />;
}

/** The items of one tab ('' is 'For whole event': all items of a single-tab action). */
function itemsOfTab(data: ExtensionData, tabs: string[], tab: string): ExtensionItemView[] {
  return data.items.filter((item) => tabOfItem(tabs, item.date) === tab);
}

function UsersScreen({ type, data }: { type: ExtensionType; data: ExtensionData }) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const tabs = useMemo(() => extensionTabs(type, data), [type, data]);
  const [tab, setTab] = useState(tabs[0]);
  const [view, setView] = useState<'people' | 'groups'>('people');
  const canSeeGroups =
    hasRight(session, 'actionExtension', 'getGroupsActionExtension') && hasRight(session, 'groups', 'get');
  const tabLabel = (day: string) => {
    if (!day) return t('extension.wholeEvent');
    return localized(data.action.dayNames?.[day], i18n.language) || formatDay(day, i18n.language);
  };
  const title = t(type === EXTENSION_MEAL ? 'extension.meal.title' : 'extension.parking.title');

  return (
    <>
      <PageHeader title={`${title}: ${localized(data.action.name, i18n.language)} – ${t('extension.users.title')}`} />
      {canSeeGroups && (
        <Tabs value={view} onChange={(v) => setView(v === 'groups' ? 'groups' : 'people')} mb="md">
          <Tabs.List aria-label={t('extension.users.views')}>
            <Tabs.Tab value="people">{t('extension.users.people')}</Tabs.Tab>
            <Tabs.Tab value="groups">{t('extension.groups.title')}</Tabs.Tab>
          </Tabs.List>
        </Tabs>
      )}
      {view === 'groups' ? (
        <GroupDefaults type={type} data={data} tabLabel={tabLabel} tabs={tabs} />
      ) : (
        <Tabs value={tabValue(tab)} onChange={(v) => setTab(tabKey(v, tabs))} keepMounted={false}>
          <Tabs.List mb="md" aria-label={t('extension.days')}>
            {tabs.map((day) => (
              <Tabs.Tab key={day || 'whole'} value={tabValue(day)}>
                {tabLabel(day)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((day) => (
            <Tabs.Panel key={day || 'whole'} value={tabValue(day)}>
              <PeopleOfDay type={type} data={data} day={day} items={itemsOfTab(data, tabs, day)} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </>
  );
}

/** A person's items of the day as badges: label, option, 'used' with a lock, licence plate. */
function HeldItems({
  items,
  held,
  meal,
}: {
  items: ExtensionItemView[];
  held: UserExtensionItemView[];
  meal: boolean;
}) {
  const { t, i18n } = useTranslation();
  const shown = held.filter((h) => items.some((i) => i.id === h.itemId));
  if (shown.length === 0) return <>{t('basics.dash')}</>;
  return (
    <Group gap={4}>
      {shown.map((h) => {
        const item = items.find((i) => i.id === h.itemId) as ExtensionItemView;
        const option = item.options.find((o) => o.id === h.option);
        const text = [
          localized(item.label, i18n.language),
          option ? localized(option.name, i18n.language) : null,
          !meal && h.licencePlate ? h.licencePlate : null,
        ]
          .filter(Boolean)
          .join(' · ');
        return (
          <Badge
            key={h.itemId}
            variant="light"
            color={h.dateUsed ? 'gray' : undefined}
            tt="none"
            leftSection={h.dateUsed ? <IconLock size={12} aria-label={t('extension.used')} /> : undefined}
            title={h.dateUsed ? `${t('extension.used')}: ${h.dateUsed.replace('T', ' ')}` : undefined}
          >
            {h.dateUsed ? `${text} (${t('extension.used')})` : text}
          </Badge>
        );
      })}
    </Group>
  );
}

function PeopleOfDay({
  type,
  data,
  day,
  items,
}: {
  type: ExtensionType;
  data: ExtensionData;
  day: string;
  items: ExtensionItemView[];
}) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const queryClient = useQueryClient();
  const canAssign = hasRight(session, 'actionExtension', 'assignUserExtension');
  const [phrase, setPhrase] = useState('');
  const [debounced] = useDebouncedValue(phrase, 500);
  const [has, setHas] = useState<'all' | 'with' | 'without'>('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [selection, setSelection] = useState<Set<number>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const [assigning, setAssigning] = useState<{ ids: number[]; single: ExtensionUserRow | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const meal = type === EXTENSION_MEAL;

  const key = [...extensionKey(type, data.actionId), 'users', day, debounced, has, page, pageSize];
  const users = useQuery({
    queryKey: key,
    queryFn: () =>
      extensionApi.users(type, data.actionId, {
        page,
        pageSize,
        day: day || null,
        phrase: debounced,
        has,
        groupId: null,
      }),
    placeholderData: keepPreviousData,
  });
  const rows = users.data?.data ?? [];
  const total = users.data?.max ?? 0;

  const select = (index: number, range: boolean) => {
    const next = new Set(selection);
    if (range && anchor !== null) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (let i = from; i <= to; i += 1) next.add(rows[i].id);
    } else if (next.has(rows[index].id)) next.delete(rows[index].id);
    else next.add(rows[index].id);
    setAnchor(index);
    setSelection(next);
  };

  const submit = async (chosen: UserExtensionItemInput[]) => {
    if (!assigning) return;
    setBusy(true);
    try {
      await extensionApi.assign(type, data.actionId, {
        items: chosen,
        usersIds: assigning.ids,
        actionId: data.actionId,
      });
      notifySuccess('actionExtension.assigned');
      setAssigning(null);
      setSelection(new Set());
    } catch (error) {
      notifyExtensionError(error, 'actionExtension.assignedError');
    } finally {
      setBusy(false);
      // Counts of taken places changed either way: reload the people and the items.
      void queryClient.invalidateQueries({ queryKey: extensionKey(type, data.actionId) });
    }
  };

  const fullName = (u: ExtensionUserRow) => `${u.firstname} ${u.lastname}`;
  const columns: DataTableColumn<ExtensionUserRow>[] = [
    { key: 'customId', header: t('extension.users.customId'), render: (u) => u.customId, width: 70 },
    { key: 'name', header: t('extension.users.name'), render: fullName },
    { key: 'email', header: t('extension.users.email'), render: (u) => u.email },
    { key: 'group', header: t('extension.users.group'), render: (u) => u.groupName || t('basics.dash') },
    {
      key: 'items',
      header: t(meal ? 'extension.meal.title' : 'extension.parking.title'),
      render: (u) => <HeldItems items={items} held={u.items} meal={meal} />,
    },
    {
      key: 'options',
      header: t('basics.options'),
      render: (u) =>
        canAssign ? (
          <Button
            size="compact-sm"
            variant="subtle"
            aria-label={`${t('extension.users.assignOne')}: ${fullName(u)}`}
            onClick={() => setAssigning({ ids: [u.id], single: u })}
          >
            {t('extension.users.assignOne')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Stack gap="sm">
      <Group align="flex-end" justify="space-between">
        <Group align="flex-end">
          <TextInput
            label={t('extension.users.search')}
            value={phrase}
            onChange={(e) => {
              setPhrase(e.currentTarget.value);
              setPage(1);
            }}
          />
          <Select
            label={t('extension.users.filter')}
            allowDeselect={false}
            value={has}
            onChange={(v) => {
              setHas((v as typeof has) ?? 'all');
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('extension.users.filterAll') },
              { value: 'with', label: t('extension.users.filterWith') },
              { value: 'without', label: t('extension.users.filterWithout') },
            ]}
          />
        </Group>
        {canAssign && (
          <Button
            leftSection={<IconUsersPlus size={16} />}
            disabled={selection.size === 0}
            onClick={() => setAssigning({ ids: [...selection], single: null })}
          >
            {t('extension.users.assignSelected', { count: selection.size })}
          </Button>
        )}
      </Group>
      {users.isError ? (
        <Alert color="red">{t('extension.users.loadError')}</Alert>
      ) : users.isPending ? (
        <LoadingState />
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t('extension.users.empty')}</Text>
      ) : (
        <SelectableTable
          label={t('extension.users.title')}
          columns={columns}
          rows={rows}
          getRowId={(u) => u.id}
          isSelected={(u) => selection.has(u.id)}
          onSelect={select}
          onOpen={canAssign ? (u) => setAssigning({ ids: [u.id], single: u }) : undefined}
        />
      )}
      <TableFooter
        selected={selection.size}
        total={total}
        paging={
          total >= 10
            ? {
                page,
                pageCount: Math.max(1, Math.ceil(total / pageSize)),
                pageSize,
                setPage,
                setPageSize,
              }
            : undefined
        }
      />
      <AssignModal
        opened={assigning !== null}
        title={
          assigning?.single
            ? `${t('extension.users.assignOne')}: ${fullName(assigning.single)}`
            : t('extension.users.assignSelected', { count: assigning?.ids.length ?? 0 })
        }
        type={type}
        items={items}
        held={assigning?.single?.items ?? []}
        single={Boolean(assigning?.single)}
        busy={busy}
        onClose={() => setAssigning(null)}
        onSubmit={(chosen) => void submit(chosen)}
      />
    </Stack>
  );
}

/**
 * The groups of the action and their default items (spec §3 Group assignDefaultMeal/Parking,
 * PUT …/groups/{groupId}): people who join a group whose switch is on get these items.
 */
function GroupDefaults({
  type,
  data,
  tabs,
  tabLabel,
}: {
  type: ExtensionType;
  data: ExtensionData;
  tabs: string[];
  tabLabel: (day: string) => string;
}) {
  const { t, i18n } = useTranslation();
  const session = useAdminSession();
  const canAssign = hasRight(session, 'actionExtension', 'assignGroupsActionExtension');
  const groups = useQuery({ queryKey: ['admin', 'groups'], queryFn: groupsApi.list });
  const mine = (groups.data ?? []).filter((g) => g.actionId === data.actionId);
  const [open, setOpen] = useState<{ id: number; name: string } | null>(null);

  if (groups.isPending) return <LoadingState />;
  if (groups.isError) return <Alert color="red">{t('extension.groups.loadError')}</Alert>;
  if (mine.length === 0) return <Text c="dimmed">{t('extension.groups.empty')}</Text>;
  return (
    <>
      <Table aria-label={t('extension.groups.title')} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('basics.name')}</Table.Th>
            <Table.Th>{t('extension.groups.assignDefault')}</Table.Th>
            <Table.Th>{t('basics.options')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {mine.map((g) => {
            const on = type === EXTENSION_MEAL ? g.assignDefaultMeal : g.assignDefaultParking;
            return (
              <Table.Tr key={g.id}>
                <Table.Td>{localized(g.displayName, i18n.language) || g.name}</Table.Td>
                <Table.Td>{on ? t('basics.yes') : t('basics.no')}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    aria-label={`${t('extension.groups.edit')}: ${g.name}`}
                    onClick={() => setOpen({ id: g.id, name: g.name })}
                  >
                    {t(canAssign ? 'extension.groups.edit' : 'extension.groups.show')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {open && (
        <GroupDefaultsModal
          type={type}
          data={data}
          tabs={tabs}
          tabLabel={tabLabel}
          group={open}
          canAssign={canAssign}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}

function GroupDefaultsModal({
  type,
  data,
  tabs,
  tabLabel,
  group,
  canAssign,
  onClose,
}: {
  type: ExtensionType;
  data: ExtensionData;
  tabs: string[];
  tabLabel: (day: string) => string;
  group: { id: number; name: string };
  canAssign: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const defaults = useQuery({
    queryKey: [...extensionKey(type, data.actionId), 'group', group.id],
    queryFn: () => extensionApi.group(type, data.actionId, group.id),
    gcTime: 0,
  });
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState(tabs[0]);
  const [applyToMembers, setApplyToMembers] = useState(false);
  const held: UserExtensionItemView[] = (defaults.data?.items ?? []).map((i) => ({
    itemId: i.itemId,
    option: i.option,
    have: true,
    dateUsed: null,
    licencePlate: null,
  }));

  const submit = async (chosen: UserExtensionItemInput[]) => {
    setBusy(true);
    try {
      const changed = new Map(chosen.map((c) => [c.itemId, c]));
      const kept = (defaults.data?.items ?? [])
        .filter((i) => !changed.has(i.itemId))
        .map((i) => ({ itemId: i.itemId, option: i.option, have: true }));
      const items = [...kept, ...chosen.filter((c) => c.have !== false)];
      await extensionApi.saveGroup(type, data.actionId, group.id, { items, actionId: data.actionId, applyToMembers });
      notifySuccess('actionExtension.assigned');
      onClose();
    } catch (error) {
      notifyExtensionError(error, 'actionExtension.assignedError');
    } finally {
      setBusy(false);
    }
  };

  if (defaults.isError)
    return (
      <Alert color="red" mt="md">
        {t('extension.groups.loadError')}
      </Alert>
    );
  if (!defaults.data) return <LoadingState />;
  const header = (
    <>
      {!defaults.data.assignDefault && (
        <Alert color="yellow">
          {t(type === EXTENSION_MEAL ? 'extension.groups.switchOffMeal' : 'extension.groups.switchOffParking')}
        </Alert>
      )}
      <Switch
        label={t('extension.groups.applyToMembers')}
        checked={applyToMembers}
        onChange={(e) => setApplyToMembers(e.currentTarget.checked)}
      />
      {tabs.length > 1 && (
        <Tabs value={tabValue(tab)} onChange={(v) => setTab(tabKey(v, tabs))}>
          <Tabs.List aria-label={t('extension.days')}>
            {tabs.map((day) => (
              <Tabs.Tab key={day || 'whole'} value={tabValue(day)}>
                {tabLabel(day)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
    </>
  );
  return (
    <AssignModal
      opened
      title={`${t('extension.groups.edit')}: ${group.name}`}
      type={type}
      items={data.items}
      held={held}
      single
      busy={busy || !canAssign}
      header={header}
      shown={(item) => tabOfItem(tabs, item.date) === tab}
      onClose={onClose}
      onSubmit={(chosen) => void submit(chosen)}
    />
  );
}
