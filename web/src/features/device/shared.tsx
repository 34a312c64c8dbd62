import type { DeviceTemplateDto } from '@accredo/domain';
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceApi } from '../../api/device';
import { useActionOptions, useLocalized } from '../groups/setup-shared';

export const DEVICES_KEY = ['admin', 'device'] as const;
export const DEVICE_KEY_KEY = ['admin', 'device', 'key'] as const;
export const TEMPLATES_KEY = ['admin', 'device-template'] as const;

/** The modes of spec §3 Device template. */
export const DEVICE_MODES = [1, 2, 3, 4, 5] as const;

/** The name of an action by id (from GET action), `#id` when the list lacks it. */
export function useActionName() {
  const { actions } = useActionOptions();
  const localized = useLocalized();
  return useMemo(() => {
    const names = new Map(actions.map((a) => [a.id, localized(a.name)]));
    return (id: number | null | undefined) => (id ? names.get(id) || `#${id}` : '');
  }, [actions, localized]);
}

/** The rule templates as select options grouped by action. */
export function useTemplateSelectData(enabled = true) {
  const templates = useQuery({ queryKey: TEMPLATES_KEY, queryFn: () => deviceApi.templates(), enabled });
  const actionName = useActionName();
  const data = useMemo(() => {
    const groups = new Map<number, { value: string; label: string }[]>();
    for (const tpl of (templates.data ?? []) as DeviceTemplateDto[]) {
      const items = groups.get(tpl.actionId) ?? [];
      items.push({ value: String(tpl.id), label: tpl.name });
      groups.set(tpl.actionId, items);
    }
    return [...groups.entries()].map(([actionId, items]) => ({ group: actionName(actionId), items }));
  }, [templates.data, actionName]);
  return { data, query: templates };
}

/** Online / offline / not paired of a device. */
export function DeviceState({ online, paired }: { online: boolean; paired: boolean }) {
  const { t } = useTranslation();
  if (!paired)
    return (
      <Badge color="gray" variant="light" tt="none">
        {t('device.notPaired')}
      </Badge>
    );
  return (
    <Badge color={online ? 'green' : 'red'} variant="light" tt="none">
      {t(online ? 'device.online' : 'device.offline')}
    </Badge>
  );
}

/** A date and time as the interface language writes it, or a dash. */
export function useDateTime() {
  const { t, i18n } = useTranslation();
  return (iso: string | null | undefined) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }) : t('basics.dash');
}
