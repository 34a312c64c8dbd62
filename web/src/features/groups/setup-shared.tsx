import { hasRight, LANGUAGES, type MultiText, type RightPage } from '@accredo/domain';
import { Alert, Badge, Button, Group, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type ActionOption, groupsApi } from '../../api/groups';
import { readStorage, STORAGE_KEYS } from '../../api/storage';
import { useAdminSession } from '../../app/admin-session';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { LoadingState } from '../../components/loading-state';
import { PageHeader } from '../../components/page-header';
import { EditLink } from '../../components/edit-link';

/** Query key of the actions the set-up screens tab by and offer (GET action). */
export const SETUP_ACTIONS_KEY = ['admin', 'action', 'setup-options'] as const;

/**
 * The actions for tabs and selects. Without the action right the call is not made: the screens
 * still work with the actions named by their records.
 */
export function useActionOptions() {
  const session = useAdminSession();
  const allowed = hasRight(session, 'action', 'get');
  const query = useQuery({ queryKey: SETUP_ACTIONS_KEY, queryFn: groupsApi.actions, enabled: allowed });
  return { actions: query.data ?? [], pending: allowed && query.isPending, failed: query.isError };
}

/** A text per language shown in the interface language, Czech as the fallback (spec §1). */
export function useLocalized() {
  const { i18n } = useTranslation();
  const lang = (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as keyof MultiText) : 'cs';
  return (text: Partial<MultiText> | null | undefined): string => text?.[lang]?.trim() || text?.cs || '';
}

/** The value of the 'not assigned' tab (records without an action). */
export const NO_ACTION_TAB = 'none';

export interface ActionTab {
  value: string;
  label: string;
  count: number;
}

/**
 * One tab per action (the subject's actions plus any action a record names that the list lacks),
 * and the 'not assigned' tab for records without an action.
 */
export function useActionTabs<T>({
  items,
  actions,
  getActionId,
  getActionName,
  unassigned,
}: {
  items: T[];
  actions: ActionOption[];
  getActionId: (item: T) => number | null;
  getActionName?: (item: T) => MultiText | null;
  /** 'always' shows the 'not assigned' tab even when empty; 'whenAny' only when a record has no action */
  unassigned: 'always' | 'whenAny';
}): ActionTab[] {
  const { t } = useTranslation();
  const localized = useLocalized();
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const item of items) {
      const key = getActionId(item) === null ? NO_ACTION_TAB : String(getActionId(item));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const tabs: ActionTab[] = actions.map((a) => ({
      value: String(a.id),
      label: localized(a.name) || t('groups.actionNumber', { id: a.id }),
      count: counts.get(String(a.id)) ?? 0,
    }));
    const known = new Set(tabs.map((tab) => tab.value));
    for (const item of items) {
      const id = getActionId(item);
      if (id === null || known.has(String(id))) continue;
      known.add(String(id));
      tabs.push({
        value: String(id),
        label: localized(getActionName?.(item)) || t('groups.actionNumber', { id }),
        count: counts.get(String(id)) ?? 0,
      });
    }
    const none = counts.get(NO_ACTION_TAB) ?? 0;
    if (unassigned === 'always' || none > 0)
      tabs.push({ value: NO_ACTION_TAB, label: t('groups.notAssigned'), count: none });
    return tabs;
  }, [items, actions, getActionId, getActionName, unassigned, localized, t]);
}

/** The open tab, kept in the address (`?action=`) so coming back from a detail keeps it. */
export function useTabParam(values: string[], param = 'action') {
  const [params, setParams] = useSearchParams();
  const requested = params.get(param);
  const stored = readStorage(STORAGE_KEYS.currentAction);
  const value =
    requested && values.includes(requested)
      ? requested
      : stored && values.includes(stored)
        ? stored
        : (values[0] ?? null);
  const setValue = (next: string | null) => {
    if (!next) return;
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        out.set(param, next);
        return out;
      },
      { replace: true },
    );
  };
  return [value, setValue] as const;
}

/** The action id a tab stands for (null for 'not assigned'). */
export const tabActionId = (tab: string | null): number | null =>
  tab && tab !== NO_ACTION_TAB && Number.isFinite(Number(tab)) ? Number(tab) : null;

/** The tab strip of a list tabbed by action; renders only the open tab's rows. */
export function ActionTabs({
  label,
  tabs,
  value,
  onChange,
  children,
}: {
  label: string;
  tabs: ActionTab[];
  value: string | null;
  onChange: (value: string | null) => void;
  children: ReactNode;
}) {
  return (
    <Tabs value={value} onChange={onChange} keepMounted={false}>
      <Tabs.List aria-label={label} mb="md">
        {tabs.map((tab) => (
          <Tabs.Tab
            key={tab.value}
            value={tab.value}
            rightSection={
              <Badge size="xs" variant="light" color="gray" aria-hidden>
                {tab.count}
              </Badge>
            }
          >
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {value && <Tabs.Panel value={value}>{children}</Tabs.Panel>}
    </Tabs>
  );
}

/** A notice that the actions could not be loaded (the lists still show what they can). */
export function ActionsLoadNotice({ failed }: { failed: boolean }) {
  const { t } = useTranslation();
  if (!failed) return null;
  return (
    <Alert color="yellow" mb="md">
      {t('groups.actionsLoadError')}
    </Alert>
  );
}

/** Named records (zones of a group, groups of a zone) as small badges, or a dash. */
export function NameBadges({ items }: { items: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return <Text size="sm">{t('basics.dash')}</Text>;
  return (
    <Group gap={4}>
      {items.map((item) => (
        <Badge key={item.id} variant="light" size="sm" tt="none">
          {item.name}
        </Badge>
      ))}
    </Group>
  );
}

/** A select's options of the subject's actions, plus the record's own action when the list lacks it. */
export function useActionSelectData(current?: { id: number | null; name?: MultiText | null }) {
  const { actions } = useActionOptions();
  const localized = useLocalized();
  const id = current?.id ?? null;
  const name = current?.name;
  return useMemo(() => {
    const data = actions.map((a) => ({ value: String(a.id), label: localized(a.name) || `#${a.id}` }));
    if (id && !data.some((d) => d.value === String(id)))
      data.push({ value: String(id), label: localized(name) || `#${id}` });
    return data;
  }, [actions, id, name, localized]);
}

/** A record of a list tabbed by action. */
export interface ByActionRecord {
  id: number;
  name: string;
  actionId: number | null;
}

const recordActionId = (item: ByActionRecord) => item.actionId;

/**
 * A set-up list (groups, zones, web channels; spec §2) tabbed by action: Add (with the open tab's
 * action preset) for users with the create right, an Edit link per row, double-click opens.
 */
export function ByActionListPage<T extends ByActionRecord>({
  path,
  page,
  query,
  columns,
  rowLinks,
  getActionName,
  unassigned,
  texts,
  headerExtra,
}: {
  /** the records' route: `${path}/detail/:id`, `${path}/create` */
  path: string;
  /** the rights page whose create right shows Add */
  page: RightPage;
  query: UseQueryResult<T[]>;
  /** the columns before the options column */
  columns: DataTableColumn<T>[];
  /** more links of a row after Edit */
  rowLinks?: (item: T) => ReactNode;
  getActionName?: (item: T) => MultiText | null;
  unassigned: 'always' | 'whenAny';
  /** i18n keys: page title, tab strip label, load error, empty tab, and the text without any tab */
  texts: { title: string; byAction: string; loadError: string; empty: string; noTabs?: string };
  /** more in the page header before Add (the "Show archived" switch, issue 15) */
  headerExtra?: ReactNode;
}) {
  const { t } = useTranslation();
  const session = useAdminSession();
  const navigate = useNavigate();
  const { actions, pending, failed } = useActionOptions();
  const items = query.data ?? [];
  const tabs = useActionTabs({ items, actions, getActionId: recordActionId, getActionName, unassigned });
  const [tab, setTab] = useTabParam(tabs.map((x) => x.value));
  const actionId = tabActionId(tab);

  const allColumns: DataTableColumn<T>[] = [
    ...columns,
    {
      key: 'options',
      header: t('basics.options'),
      render: (item) => (
        <Group gap="xs" wrap="nowrap">
          <EditLink to={`${path}/detail/${item.id}`} name={item.name} />
          {rowLinks?.(item)}
        </Group>
      ),
    },
  ];
  const table = (rows: T[], emptyText: string) => (
    <DataTable
      label={t(texts.title)}
      columns={allColumns}
      rows={rows}
      getRowId={(item) => item.id}
      error={query.isError ? t(texts.loadError) : undefined}
      emptyText={emptyText}
      onOpen={(item) => navigate(`${path}/detail/${item.id}`)}
    />
  );

  return (
    <>
      <PageHeader title={t(texts.title)}>
        {headerExtra}
        {hasRight(session, page, 'create') && (
          <Button
            component={Link}
            to={actionId === null ? `${path}/create` : `${path}/create?actionId=${actionId}`}
            leftSection={<IconPlus size={16} />}
          >
            {t('basics.add')}
          </Button>
        )}
      </PageHeader>
      <ActionsLoadNotice failed={failed} />
      {query.isPending || pending ? (
        <LoadingState />
      ) : tabs.length === 0 ? (
        table([], t(texts.noTabs ?? texts.empty))
      ) : (
        <ActionTabs label={t(texts.byAction)} tabs={tabs} value={tab} onChange={setTab}>
          {table(
            items.filter((item) => item.actionId === actionId),
            t(texts.empty),
          )}
        </ActionTabs>
      )}
    </>
  );
}
