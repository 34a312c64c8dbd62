import {
  type Language,
  type MultiText,
  type OnlineChannelData,
  type OnlineField,
  type OnlineRegistrationInput,
  type UserExtensionItemInput,
} from '@accredo/domain';
import { localized } from '../../api/action';
import type { OnlineFormOutput } from './online-form-schema';
import type { CustomFieldFormValues } from '../accreditation/detail/custom-field-input';
import { customFieldList, type FieldDef, fieldDefs, initialFieldValues } from '../accreditation/detail/form-values';

/** What the registration form holds; user-field values by field id, like the accreditation form. */
export interface OnlineFormValues extends CustomFieldFormValues {
  firstname: string;
  lastname: string;
  email: string;
  /** the chosen group: one id at most */
  groups: string[];
  days: string[];
  /** the photo as a data URL */
  image: string | null;
  /** ticked checking attributes by id (spec §5 ca-{id}) */
  checkingAttributes: Record<string, boolean>;
  /** the meal items chosen ({itemId, option}), only when the channel offers them */
  mealItems: UserExtensionItemInput[];
  /** the car park (and place) chosen with the licence plate */
  parkingItems: UserExtensionItemInput[];
}

/**
 * The channel's user fields as the shared field inputs take them, labelled in `language` with the
 * Czech fallback (spec §1); the labels and help texts are read like the accreditation form's.
 */
export function onlineFieldDefs(fields: OnlineField[], language: string): FieldDef[] {
  return fieldDefs(
    fields.map((f) => ({
      id: f.id,
      name: f.name,
      isMandatory: f.isMandatory,
      notShow: false,
      defaultValue: '',
      customFieldType: f.customFieldType,
    })),
    fields.map((f) => ({
      id: f.id,
      name: f.name,
      label: f.label,
      tooltip: f.tooltip,
      customFieldType: { id: f.customFieldType, code: '' },
      options: f.options,
      placeholder: '',
    })),
    language,
  );
}

export function onlineFormValues(data: OnlineChannelData, fields: FieldDef[]): OnlineFormValues {
  return {
    firstname: '',
    lastname: '',
    email: '',
    customField: initialFieldValues(fields),
    groups: [],
    days: data.viewDays ? [...data.defaultDays] : [],
    image: null,
    checkingAttributes: Object.fromEntries(data.checkingAttributes.map((a) => [a.id, false])),
    mealItems: [],
    parkingItems: [],
  };
}

/** The body of POST accreditation/{key} (spec §3 Online registration payload). */
export function onlinePayload(
  values: OnlineFormOutput,
  fields: FieldDef[],
  language: Language,
): OnlineRegistrationInput {
  return {
    firstname: values.firstname,
    lastname: values.lastname,
    email: values.email,
    customField: customFieldList(fields, values.customField),
    days: values.days,
    groups: values.groups,
    image: values.image ?? null,
    mealItems: values.mealItems,
    parkingItems: values.parkingItems,
    checkingAttributes: values.checkingAttributes,
    language,
  };
}

/** A channel text in the form's language, Czech as the fallback; '' when both are empty. */
export const channelText = (text: Partial<MultiText> | null | undefined, language: string) =>
  localized(text, language).trim();

/** An html text has something to show (not just empty tags). */
export const hasHtml = (html: string) => html.replace(/<[^>]*>|&nbsp;|\s/g, '') !== '' || /<img/i.test(html);

export type { OnlineFormOutput };
