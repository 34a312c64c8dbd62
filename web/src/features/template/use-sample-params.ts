import { hasRight } from '@accredo/domain';
import { buildContext, sampleInput, type TemplateParams } from '@accredo/templates/catalogue';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CUSTOM_FIELD_LIST_KEY, customFieldApi } from '../../api/custom-field';
import { zoneApi } from '../../api/zone';
import { useAdminSession } from '../../app/admin-session';
import { useCurrentAction } from '../action/use-current-action';

export interface SampleParams {
  /** the values to check and preview with; undefined lets the server take its own sample person */
  params: TemplateParams | undefined;
  /** true when the sample has the current action's days, zones and user fields */
  fromAction: boolean;
}

/**
 * The sample person the template check and preview use: with the current action's days, zones and
 * user fields (built by the engine's own buildContext, as the server builds a real badge), so the
 * check reports a `{{custom_field[99]}}` or `{{zones[5]}}` the action does not have. Without a
 * current action, or without the rights to read it, the server samples from the template itself.
 */
export function useSampleParams(): SampleParams {
  const { i18n } = useTranslation();
  const session = useAdminSession();
  const current = useCurrentAction();
  const zones = useQuery({
    queryKey: ['admin', 'zone'],
    queryFn: zoneApi.list,
    enabled: hasRight(session, 'zone', 'get'),
  });
  const fields = useQuery({
    queryKey: CUSTOM_FIELD_LIST_KEY,
    queryFn: customFieldApi.list,
    enabled: hasRight(session, 'customField', 'get'),
  });
  const action = current.action;

  return useMemo(() => {
    if (!action) return { params: undefined, fromAction: false };
    const known = new Map((fields.data ?? []).map((f) => [f.id, f]));
    const input = sampleInput({
      language: i18n.language,
      action: { name: action.name, days: action.days },
      zones: zones.data?.filter((z) => z.actionId === action.id),
      fields: action.customField.map((f) => ({
        id: f.id,
        name: f.name,
        customFieldType: f.customFieldType,
        options: known.get(f.id)?.options ?? [],
      })),
    });
    return { params: buildContext(input), fromAction: true };
  }, [action, zones.data, fields.data, i18n.language]);
}
