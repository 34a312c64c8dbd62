import { type ActionDay, type Language, type MultiText, regenerateDays } from '@accredo/domain';
import type { UseFormReturn } from 'react-hook-form';
import type { ActionCustomField, ActionDto, ActionPayload } from '../../api/action';

export interface PreviewBlockValues {
  show: boolean;
  title: MultiText;
  html: MultiText;
}

export interface SelectBlockValues extends PreviewBlockValues {
  allowSelect: boolean;
  /** 'YYYY-MM-DDTHH:mm' or '' */
  selectDateTime: string;
}

export interface CheckingAttributeValues {
  id: string | null;
  label: MultiText;
  url: string;
  required: boolean;
}

/** What the action form edits; dates are 'YYYY-MM-DDTHH:mm' or '' (the wire format of spec §5). */
export interface ActionFormValues {
  name: MultiText;
  dateFrom: string;
  dateTo: string;
  multiDay: boolean;
  days: ActionDay[];
  afterMailTemplateId: number | null;
  isCredit: boolean;
  withPhoto: boolean;
  requirePhoto: boolean;
  smartBc: boolean;
  /** name and customFieldType are shown only; the schema drops them from the body */
  customField: ActionCustomField[];
  textOnline: MultiText;
  textAfterAdd: MultiText;
  checkingAttributes: CheckingAttributeValues[];
  previewData: {
    title: MultiText;
    image: number | null;
    credit: PreviewBlockValues;
    custom: PreviewBlockValues;
    meal: SelectBlockValues;
    parking: SelectBlockValues;
  };
}

export const emptyText = (): MultiText => ({ cs: '', sk: '', en: '', de: '' });

/** A multilingual text with every language present (older rows may lack some). */
export function multiText(value: Partial<MultiText> | null | undefined): MultiText {
  return { cs: value?.cs ?? '', sk: value?.sk ?? '', en: value?.en ?? '', de: value?.de ?? '' };
}

type BlockLike = Partial<Omit<SelectBlockValues, 'title' | 'html' | 'selectDateTime'>> & {
  title?: Partial<MultiText> | null;
  html?: Partial<MultiText> | null;
  selectDateTime?: string | null;
};

const block = (b: BlockLike | null | undefined): PreviewBlockValues => ({
  show: b?.show ?? false,
  title: multiText(b?.title),
  html: multiText(b?.html),
});

const selectBlock = (b: BlockLike | null | undefined): SelectBlockValues => ({
  ...block(b),
  allowSelect: b?.allowSelect ?? false,
  selectDateTime: b?.selectDateTime ?? '',
});

/** The form's values for an action, or a new one's defaults. */
export function actionFormValues(action?: ActionDto): ActionFormValues {
  const preview = action?.previewData;
  return {
    name: multiText(action?.name),
    dateFrom: action?.dateFrom ?? '',
    dateTo: action?.dateTo ?? '',
    multiDay: action?.multiDay ?? false,
    days: (action?.days ?? []).map((d) => ({ id: d.id, name: multiText(d.name), onAccreditation: d.onAccreditation })),
    afterMailTemplateId: action?.afterMailTemplateId ?? null,
    isCredit: action?.isCredit ?? false,
    withPhoto: action?.withPhoto ?? false,
    requirePhoto: action?.requirePhoto ?? false,
    smartBc: action?.smartBc ?? false,
    customField: (action?.customField ?? []).map((f) => ({
      id: f.id,
      name: f.name,
      customFieldType: f.customFieldType,
      isMandatory: f.isMandatory,
      notShow: f.notShow,
      defaultValue: f.defaultValue ?? '',
    })),
    textOnline: multiText(action?.textOnline),
    textAfterAdd: multiText(action?.textAfterAdd),
    checkingAttributes: (action?.checkingAttributes ?? []).map((a) => ({
      id: a.id ?? null,
      label: multiText(a.label),
      url: a.url ?? '',
      required: a.required ?? false,
    })),
    previewData: {
      title: multiText(preview?.title),
      image: preview?.image ?? null,
      credit: block(preview?.credit),
      custom: block(preview?.custom),
      meal: selectBlock(preview?.meal),
      parking: selectBlock(preview?.parking),
    },
  };
}

/** A day added back from the range, named like the generated ones. */
export function newDay(id: string): ActionDay {
  return regenerateDays([], id, id)[0] ?? { id, name: { ...emptyText(), cs: id }, onAccreditation: id };
}

/** The days after adding one, in date order. */
export function withDay(days: ActionDay[], id: string): ActionDay[] {
  if (days.some((d) => d.id === id)) return days;
  return [...days, newDay(id)].sort((a, b) => a.id.localeCompare(b.id));
}

/** A date-time of the wire ('YYYY-MM-DDTHH:mm') for lists: '2026-05-01 09:00'. */
export function formatDateTime(value: string | null | undefined): string {
  return value ? value.replace('T', ' ') : '';
}

/** What every tab of the action form receives. */
export interface ActionTabProps {
  form: UseFormReturn<ActionFormValues, unknown, ActionPayload>;
  /** the languages texts are edited in (cs only without multi-language) */
  languages: readonly Language[];
  /** the translated error at a dotted path */
  fieldError: (name: string) => string | undefined;
}
