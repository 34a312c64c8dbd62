import { hasRight, LANGUAGES, type MultiText } from '@accredo/domain';
import { Alert, Badge, Group, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type ActionOption, groupsApi } from '../../api/groups';
import { readStorage, STORAGE_KEYS } from '../../api/storage';
import { useAdminSession } from '../../app/admin-session';

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
