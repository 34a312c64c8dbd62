import type { Language } from './constants.js';
import type { MultiText } from './schemas/setup.js';

// What the admin API answers for the set-up records and the row history (spec §3, §7): written
// once here, returned by the backend's services and read by the web's API modules.

/** A named record a list shows as a badge (a group's zones, a zone's groups). */
export interface NamedRef {
  id: number;
  name: string;
}

/** A group of spec §3 as GET groups and GET groups/{id} answer. */
export interface GroupDto {
  id: number;
  name: string;
  displayName: MultiText;
  label: string;
  htmlData: string;
  adminTemplateId: number | null;
  adminTemplateName: string | null;
  zoneId: number[];
  zones: NamedRef[];
  actionId: number | null;
  actionName: MultiText | null;
  assignDefaultMeal: boolean;
  assignDefaultParking: boolean;
  /** when the group was archived (issue 15); null: in use */
  archivedAt?: string | null;
}

/** A zone of spec §3 as GET zone and GET zone/{id} answer, with the groups that hold it. */
export interface ZoneDto {
  id: number;
  name: string;
  onAccreditation: string;
  actionId: number | null;
  groups: NamedRef[];
}

/** An image of the gallery (spec §3 Image). */
export interface ImageDto {
  id: number;
  name: string;
  type: number;
  size: number;
  width: number;
  height: number;
  mimeType: string;
  version: number;
  /** where the browser loads it: an unguessable, immutable URL per version */
  path: string;
  dateCreate: string;
}

/** A user-field type (GET custom-field-type): 1 TEXT … 9 IMAGE. */
export interface CustomFieldType {
  id: number;
  code: string;
}

/** An option of a select user field. */
export interface CustomFieldOption {
  id: string;
  value: string;
}

/** A user field of spec §3 as GET custom-field answers. */
export interface CustomFieldDto {
  id: number;
  name: string;
  label: MultiText;
  tooltip: MultiText;
  customFieldType: CustomFieldType;
  options: CustomFieldOption[];
  /** the placeholder that prints this field in templates */
  placeholder: string;
}

export interface MailHistoryEntry {
  date: string;
  status: string;
  fail: string | null;
  /** sent again after an interrupted send whose outcome was unknown: the person may have it twice */
  uncertain: boolean;
  adminUser: string | null;
  mailTemplate: string | null;
  note: string | null;
}

export interface PrintHistoryEntry {
  date: string;
  adminUser: string | null;
  /** the badge version this print carried (0: the first badge, the plain bc) */
  badgeVersion: number;
  /** the badge version this print retired ("replace the old badge"); null for an ordinary reprint */
  retiredVersion: number | null;
}

export interface EntranceHistoryEntry {
  date: string;
  type: number;
  deviceId: number | null;
}

/** The latest mails, prints and passages of a list row (spec §2 row tooltips). */
export interface AccreditationHistory {
  mail: MailHistoryEntry[];
  print: PrintHistoryEntry[];
  entrance: EntranceHistoryEntry[];
}

/** A user-field value of an accreditation: the field's id and its typed value (spec §3). */
export interface CustomFieldValue {
  id: number;
  value: unknown;
}

/** An accreditation as `GET user/{actionId}/{id}`, `POST user`, `PUT user/{id}` and `GET user/check/{bc}` answer. */
export interface AccreditationDto {
  id: number;
  /** the order of the accreditation in its action */
  customId: number;
  actionId: number;
  firstname: string;
  lastname: string;
  email: string;
  /** the barcode / QR value */
  bc: string;
  groupIds: number[];
  groups: NamedRef[];
  zoneIds: number[];
  zones: NamedRef[];
  days: string[];
  customField: CustomFieldValue[];
  image: { id: number; path: string } | null;
  printCount: number;
  /**
   * The version of the valid badge (0: the first; docs/access-control.md "Badge versions"). The
   * server always sends the three badge fields; clients built before them read none.
   */
  badgeVersion?: number;
  /** the code the valid badge carries: `bc`, or `{bc}-{badgeVersion}` once a badge was replaced */
  badgeCode?: string;
  /** when the valid badge replaced the one before it (ISO), null when never replaced */
  badgeReplacedAt?: string | null;
  credit: number | null;
  isUnlimited: boolean;
  /** where the person came from: 'admin' (the office) or 'web' (online registration) */
  source: string;
  /** the language every mail to the person is written in (issue 15): cs, sk, en or de */
  language: Language;
  dateCreate: string;
}

/** `GET user/check/{bc}`: the accreditation and the badge whose code was read. */
export interface CheckedAccreditationDto extends AccreditationDto {
  checked: {
    /** the code read, as the badge carries it */
    code: string;
    /** the badge version the code names */
    version: number;
    /** a reprint retired this badge: its code no longer opens gates */
    superseded: boolean;
  };
}

/** A row of the accreditation list (POST user/all, user/filter): the accreditation and its history. */
export interface AccreditationRow extends AccreditationDto {
  /** the 5 latest mails, prints and passages, newest first (row tooltips, spec §2) */
  history?: AccreditationHistory;
}
