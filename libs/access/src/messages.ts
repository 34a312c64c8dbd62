import { isLanguage, translate } from '@accredo/i18n';
import type { AccessLanguage, Decision } from './types.js';

/** Names the engine does not know (it has ids only) but the caller may: shown when given. */
export interface ReasonNames {
  zone?: string | null;
  field?: string | null;
}

/** YYYY-MM-DD as people write it: 22. 11. 2026 (cs, sk), 22.11.2026 (de), 2026-11-22 (en). */
export function formatDay(day: string, language: AccessLanguage): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const [y, mo, d] = [m[1], Number(m[2]), Number(m[3])];
  if (language === 'cs' || language === 'sk') return `${d}. ${mo}. ${y}`;
  if (language === 'de') return `${d}.${mo}.${y}`;
  return day;
}

/** The catalogue key (under `access.reason.`) that explains a decision, chosen by its data. */
export function reasonKey(decision: Decision, names: ReasonNames = {}): string {
  const { reason, data, effects } = decision;
  const effect = effects[0];
  switch (reason) {
    case 'OK':
      if (effect?.kind === 'check') return names.zone ? 'OK_checkNamed' : 'OK_check';
      if (effect?.kind === 'credit') return data.unlimited ? 'OK_creditUnlimited' : 'OK_credit';
      if (effect?.kind === 'meal') return 'OK_meal';
      if (effect?.kind === 'parking')
        return data.capacity === null || data.capacity === undefined ? 'OK_parkingUnlimited' : 'OK_parking';
      if (typeof data.allowed === 'number' && data.allowed > 0) return data.daily ? 'OK_limitedDaily' : 'OK_limited';
      return 'OK';
    case 'OK_EXIT':
      return effect?.kind === 'parking' ? 'OK_EXIT_parking' : 'OK_EXIT';
    case 'DAY_NOT_REGISTERED':
      return data.days ? 'DAY_NOT_REGISTERED' : 'DAY_NOT_REGISTERED_none';
    case 'CUSTOM_DATE_INVALID':
      return names.field ? 'CUSTOM_DATE_INVALID_named' : 'CUSTOM_DATE_INVALID';
    case 'ZONE_NOT_ALLOWED':
      return names.zone ? 'ZONE_NOT_ALLOWED_named' : 'ZONE_NOT_ALLOWED';
    case 'BADGE_SUPERSEDED':
      return data.retiredDay ? 'BADGE_SUPERSEDED_dated' : 'BADGE_SUPERSEDED';
    case 'MEAL_NOT_NOW':
      return data.next ? 'MEAL_NOT_NOW' : 'MEAL_NOT_NOW_past';
    default:
      return reason;
  }
}

const DAY_KEYS = ['day', 'dateFrom', 'dateTo', 'date', 'firstDay', 'slotDate', 'retiredDay'];

/**
 * The decision explained with its data in cs, sk, en or de (libs/i18n, `access.reason.*`), e.g.
 * "Already entered 2 of 2 times today, first at 08:12". Use the person's language where known for
 * what the person sees and the operator's for the operator. Unknown languages fall back to Czech.
 */
export function reasonMessage(
  decision: Decision,
  language: AccessLanguage | string | null | undefined,
  names: ReasonNames = {},
): string {
  const lang: AccessLanguage = isLanguage(language) ? language : 'cs';
  const params: Record<string, unknown> = { ...decision.data, zone: names.zone ?? '', field: names.field ?? '' };
  for (const key of DAY_KEYS) {
    if (typeof params[key] === 'string') params[key] = formatDay(params[key] as string, lang);
  }
  if (typeof params.days === 'string') {
    params.days = (params.days as string)
      .split(', ')
      .map((d) => formatDay(d, lang))
      .join(', ');
  }
  return translate(lang, `access.reason.${reasonKey(decision, names)}`, params);
}
