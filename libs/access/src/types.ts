/**
 * Public types of the gate decision engine (issue 11, docs/access-control.md).
 * The engine is pure: everything the gate knows comes in as plain objects, the decision and the
 * effects to write come out. The backend, the browser gate screen and the station all call `decide`.
 */

/** 1 entry (READER), 2 credit deduction, 3 zone check (CHECKER), 4 meal, 5 parking (spec §3). */
export type DeviceMode = 1 | 2 | 3 | 4 | 5;
export const DEVICE_MODES: readonly DeviceMode[] = [1, 2, 3, 4, 5];

export type Direction = 'entry' | 'exit';

/** A date kept in a user field compared with today (spec §3 custom rule; D9, D10). */
export interface CustomRule {
  customField: number;
  type: 'date';
  values: {
    system: 'today';
    /** gte: valid from the date (today ≥ date); lte: valid until (today ≤ date); eq: a day pass. */
    check: 'gte' | 'lte' | 'eq';
    /** replaces the group rule's budget when every custom rule matches; 0 = unlimited */
    entrances: number;
  };
}

export interface Rule {
  groupId: number;
  /** 0 = unlimited (an empty value is saved as 0) */
  entrances: number;
  /** the budget is per local day instead of for the whole action */
  daily: boolean;
  levelId: number;
  /** show the accreditation's info to the operator */
  info: boolean;
  customRule: CustomRule[];
}

export interface GlobalRule {
  enabled: boolean;
  entrances: number;
  daily: boolean;
  levelId: number;
  info: boolean;
}

/** A device template (rule set) as the gate applies it. `zoneId` is the template's zone. */
export interface GateTemplate {
  id: number;
  actionId: number;
  mode: DeviceMode;
  zoneId: number | null;
  rules: Rule[];
  globalRule: GlobalRule | null;
}

export interface GateAction {
  id: number;
  /** YYYY-MM-DD, from 00:00 local */
  dateFrom: string;
  /** YYYY-MM-DD, until `timeTo` local */
  dateTo: string;
  /** HH:mm, default 23:59 (the minute is included) */
  timeTo?: string | null;
  /** the action's days (YYYY-MM-DD) when it is multi-day, else [] */
  days: string[];
  /** the action has credit (spec §3 isCredit); mode 2 refuses with CREDIT_NOT_ENABLED otherwise */
  isCredit: boolean;
}

export interface MealSlot {
  id: number;
  /** YYYY-MM-DD local */
  date: string;
  /** HH:mm local, included */
  timeFrom: string;
  /** HH:mm local, excluded */
  timeTo: string;
  /** dateUsed is set */
  used: boolean;
}

export interface ParkingHold {
  areaId: number;
  /** null = unlimited */
  capacity: number | null;
}

export interface GatePerson {
  id: number;
  actionId: number;
  bc: string;
  /** primary group first */
  groupIds: number[];
  zoneIds: number[];
  /** YYYY-MM-DD days of participation */
  days: string[];
  /** user-field values by field id */
  values: Record<number, string | null>;
  credit: number;
  isUnlimited: boolean;
  meals: MealSlot[];
  parking: ParkingHold[];
  language?: string | null;
  /**
   * The version of the person's valid badge (docs/access-control.md "Badge versions"): 0 (or
   * missing) for the first badge; a reprint that retires the old badge adds 1. A scanned code of a
   * lower version is BADGE_SUPERSEDED, of a higher one NOT_FOUND.
   */
  badgeVersion?: number;
  /** when the valid badge replaced the one before it (epoch ms), if known */
  badgeReplacedAt?: number | null;
}

export interface Passage {
  /** 1 entry, 0 exit */
  type: 1 | 0;
  /** epoch ms */
  at: number;
}

export interface GateState {
  /** this person's entries and exits under this template (D2), in scan order */
  passages: Passage[];
  /** areaId -> entries − exits of everybody (D15) */
  parkingOccupancy?: Record<number, number>;
  /** areaIds this person is inside (D15) */
  parkingInside?: number[];
}

export interface ScanRequest {
  /** as read; `decide` normalises it (D18) */
  code: string;
  direction: Direction;
  /** mode 2: the amount to deduct */
  amount?: number | null;
  /** epoch ms, the decision's moment (D19: server clock online, station scan time offline) */
  at: number;
  /** IANA time zone of the subject */
  timeZone: string;
}

export interface GateContext {
  /** null: the device has no template (DEVICE_NOT_CONFIGURED) */
  template: GateTemplate | null;
  action: GateAction | null;
  /** null when no accreditation has the code in this subject */
  person: GatePerson | null;
  /** the code belongs to an accreditation of another action of the subject */
  personOfOtherAction?: boolean;
  state: GateState;
  /** offline decision of a station: a credit balance may go negative (D20) */
  offline?: boolean;
}

export type ReasonCode =
  | 'OK'
  | 'OK_EXIT'
  | 'NOT_FOUND'
  | 'OTHER_ACTION'
  | 'BADGE_SUPERSEDED'
  | 'DEVICE_NOT_CONFIGURED'
  | 'NO_GROUP'
  | 'NO_RULE'
  | 'ENTRANCES_USED'
  | 'DAILY_ENTRANCES_USED'
  | 'DAY_NOT_REGISTERED'
  | 'OUTSIDE_ACTION_DATES'
  | 'CUSTOM_DATE_NOT_YET'
  | 'CUSTOM_DATE_PASSED'
  | 'CUSTOM_DATE_OTHER_DAY'
  | 'CUSTOM_DATE_INVALID'
  | 'ZONE_NOT_ALLOWED'
  | 'CREDIT_NOT_ENABLED'
  | 'CREDIT_INSUFFICIENT'
  | 'AMOUNT_INVALID'
  | 'MEAL_NONE'
  | 'MEAL_NOT_NOW'
  | 'MEAL_USED'
  | 'PARKING_NONE'
  | 'PARKING_FULL'
  | 'PARKING_ALREADY_INSIDE'
  | 'NONCE_CONFLICT';

export const REASON_CODES: readonly ReasonCode[] = [
  'OK',
  'OK_EXIT',
  'NOT_FOUND',
  'OTHER_ACTION',
  'BADGE_SUPERSEDED',
  'DEVICE_NOT_CONFIGURED',
  'NO_GROUP',
  'NO_RULE',
  'ENTRANCES_USED',
  'DAILY_ENTRANCES_USED',
  'DAY_NOT_REGISTERED',
  'OUTSIDE_ACTION_DATES',
  'CUSTOM_DATE_NOT_YET',
  'CUSTOM_DATE_PASSED',
  'CUSTOM_DATE_OTHER_DAY',
  'CUSTOM_DATE_INVALID',
  'ZONE_NOT_ALLOWED',
  'CREDIT_NOT_ENABLED',
  'CREDIT_INSUFFICIENT',
  'AMOUNT_INVALID',
  'MEAL_NONE',
  'MEAL_NOT_NOW',
  'MEAL_USED',
  'PARKING_NONE',
  'PARKING_FULL',
  'PARKING_ALREADY_INSIDE',
  'NONCE_CONFLICT',
];

export type Effect =
  /** an `entrance` row; `day` is the local calendar day of the passage */
  | { kind: 'passage'; type: 1 | 0; day: string }
  /** a credit transaction of type 2 (withdrawal) with the device; balanceAfter = balance after it */
  | { kind: 'credit'; amount: number; balanceAfter: number }
  /** set the slot's dateUsed */
  | { kind: 'meal'; slotId: number }
  | { kind: 'parking'; areaId: number; type: 1 | 0 }
  /** mode 3 zone check: logged without an entrance row */
  | { kind: 'check' };

export type DecisionData = Record<string, string | number | null>;

export interface Decision {
  allowed: boolean;
  reason: ReasonCode;
  /** what the reason's message needs (see docs/access-control.md for the keys of each reason) */
  data: DecisionData;
  /** show the accreditation's info to the operator (the applied rule's info flag) */
  info: boolean;
  /** what the caller writes; empty when refused */
  effects: Effect[];
}

export type AccessLanguage = 'cs' | 'sk' | 'en' | 'de';
