import {
  type AuthorizationType,
  channelPasswordMissing,
  type ExternalCodeLog,
  type MultiText,
  REQUIRED,
  type WebChannel,
  type WebChannelData,
  webChannelSchema,
} from '@accredo/domain';
import { z } from 'zod';

/** A channel user as the form holds it; `password` only for a new one (spec §5 Web channel user). */
export interface ChannelUserValues {
  id: number | null;
  login: string;
  password: string;
  active: boolean;
}

/** An external code as the form holds it; `used` and `log` are shown, never sent. */
export interface ExternalCodeValues {
  id: number | null;
  code: string;
  numberOfUse: number;
  used: number;
  log: ExternalCodeLog[];
}

/** What the web channel form holds (spec §3 Web channel); ids of selects as strings. */
export interface WebChannelFormValues {
  name: string;
  actionId: string | null;
  active: boolean;
  dateFrom: string;
  dateTo: string;
  viewGroups: boolean;
  groupsSelectName: MultiText;
  groupsId: string[];
  viewDays: boolean;
  daysSelectName: MultiText;
  defaultDays: string[];
  viewMealSelect: boolean;
  viewParkingSelect: boolean;
  customNameFirstname: MultiText;
  customNameLastname: MultiText;
  customNameEmail: MultiText;
  afterAdd: { action: 1 | 2 };
  mailTemplateId: string | null;
  customField: string[];
  withAuthorization: boolean;
  authorizationType: AuthorizationType | null;
  authorizationText: MultiText;
  /** write-only: blank keeps the stored one */
  password: string;
  /** '' while the input is empty */
  numberUseExtCode: number | string;
  imageId: number | null;
  users: ChannelUserValues[];
  externalCode: ExternalCodeValues[];
}

const text = (value?: Partial<MultiText> | null): MultiText => ({ cs: '', sk: '', en: '', de: '', ...value });

export function webChannelFormValues(channel?: WebChannel, actionId?: number | null): WebChannelFormValues {
  return {
    name: channel?.name ?? '',
    actionId: channel ? String(channel.actionId) : actionId ? String(actionId) : null,
    active: channel?.active ?? true,
    dateFrom: channel?.dateFrom ?? '',
    dateTo: channel?.dateTo ?? '',
    viewGroups: channel?.viewGroups ?? false,
    groupsSelectName: text(channel?.groupsSelectName),
    groupsId: (channel?.groupsId ?? []).map(String),
    viewDays: channel?.viewDays ?? false,
    daysSelectName: text(channel?.daysSelectName),
    defaultDays: channel?.defaultDays ?? [],
    viewMealSelect: channel?.viewMealSelect ?? false,
    viewParkingSelect: channel?.viewParkingSelect ?? false,
    customNameFirstname: text(channel?.customNameFirstname),
    customNameLastname: text(channel?.customNameLastname),
    customNameEmail: text(channel?.customNameEmail),
    afterAdd: { action: channel?.afterAdd.action ?? 1 },
    mailTemplateId: channel?.mailTemplateId ? String(channel.mailTemplateId) : null,
    customField: (channel?.customField ?? []).map(String),
    withAuthorization: channel?.withAuthorization ?? false,
    // Spec §4: the type is derived on load from byPassword and byCode.
    authorizationType: channel?.withAuthorization ? channel.authorizationType : null,
    authorizationText: text(channel?.authorizationText),
    password: '',
    numberUseExtCode: channel?.numberUseExtCode ?? 0,
    imageId: channel?.imageId ?? null,
    users: (channel?.users ?? []).map((u) => ({ id: u.id, login: u.login, password: '', active: u.active })),
    externalCode: (channel?.externalCode ?? []).map((c) => ({
      id: c.id,
      code: c.code,
      numberOfUse: c.numberOfUse,
      used: c.used,
      log: c.log,
    })),
  };
}

/**
 * The shared `webChannelSchema` for the form: an empty uses input counts as missing (spec §5:
 * numberUseExtCode required for type 3), and a type 1 password is required on create and on edit
 * while none is stored.
 */
export function webChannelFormSchema(hasStoredPassword: boolean) {
  return z
    .preprocess((raw) => {
      const values = raw as WebChannelFormValues;
      const uses = values.numberUseExtCode;
      return { ...values, numberUseExtCode: uses === '' || uses === null ? undefined : uses };
    }, webChannelSchema)
    .superRefine((values, ctx) => {
      if (channelPasswordMissing(values, hasStoredPassword))
        ctx.addIssue({ code: 'custom', path: ['password'], message: REQUIRED });
    });
}

export type WebChannelFormOutput = WebChannelData;

/** Which tab holds a field, so a failed save can point there. */
export const AUTHORIZATION_FIELDS: (keyof WebChannelFormValues)[] = [
  'withAuthorization',
  'authorizationType',
  'authorizationText',
  'password',
  'numberUseExtCode',
  'users',
  'externalCode',
];
