import { describe, expect, it } from 'vitest';
import { decide, findRule } from './engine.js';
import { localDateTime } from './time.js';
import type {
  Decision,
  GateAction,
  GateContext,
  GatePerson,
  GateState,
  GateTemplate,
  ReasonCode,
  Rule,
  ScanRequest,
} from './types.js';
import { REASON_CODES } from './types.js';

/** The instant at which the wall clock of `timeZone` shows `local` ('YYYY-MM-DD HH:mm'). */
function at(local: string, timeZone = PRAGUE): number {
  const wall = Date.parse(`${local.replace(' ', 'T')}:00Z`);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const l = localDateTime(guess, timeZone);
    guess = wall - (Date.parse(`${l.day}T${l.time}:00Z`) - guess);
  }
  return guess;
}

const PRAGUE = 'Europe/Prague';
const NEW_YORK = 'America/New_York';
const AUCKLAND = 'Pacific/Auckland';

const rule = (over: Partial<Rule> = {}): Rule => ({
  groupId: 10,
  entrances: 0,
  daily: false,
  levelId: 0,
  info: false,
  customRule: [],
  ...over,
});

const ACTION: GateAction = {
  id: 1,
  dateFrom: '2026-07-10',
  dateTo: '2026-07-12',
  timeTo: null,
  days: [],
  isCredit: true,
};
const MULTI_DAY: Partial<GateAction> = { days: ['2026-07-10', '2026-07-11', '2026-07-12'] };

const PERSON: GatePerson = {
  id: 100,
  actionId: 1,
  bc: 'ABC123',
  groupIds: [10],
  zoneIds: [5],
  days: [],
  values: {},
  credit: 100,
  isUnlimited: false,
  meals: [],
  parking: [],
  language: 'en',
};

const NOON = at('2026-07-11 12:00');

interface Case {
  name: string;
  template?: Partial<GateTemplate> | null;
  action?: Partial<GateAction> | null;
  person?: Partial<GatePerson> | null;
  personOfOtherAction?: boolean;
  state?: Partial<GateState>;
  offline?: boolean;
  req?: Partial<ScanRequest>;
  expect: {
    reason: ReasonCode;
    allowed?: boolean;
    data?: Record<string, unknown>;
    effects?: unknown[];
    info?: boolean;
  };
}

function run(c: Case): Decision {
  const template: GateTemplate | null =
    c.template === null
      ? null
      : { id: 7, actionId: 1, mode: 1, zoneId: null, rules: [rule()], globalRule: null, ...c.template };
  const ctx: GateContext = {
    template,
    action: c.action === null ? null : { ...ACTION, ...c.action },
    person: c.person === null ? null : { ...PERSON, ...c.person },
    personOfOtherAction: c.personOfOtherAction,
    state: { passages: [], ...c.state },
    offline: c.offline,
  };
  const req: ScanRequest = { code: 'ABC123', direction: 'entry', at: NOON, timeZone: PRAGUE, ...c.req };
  return decide(req, ctx);
}

const entry = (local: string, tz = PRAGUE) => ({ type: 1 as const, at: at(local, tz) });
const exit = (local: string, tz = PRAGUE) => ({ type: 0 as const, at: at(local, tz) });
const ALLOWED: ReasonCode[] = ['OK', 'OK_EXIT'];

const CASES: Record<string, Case[]> = {
  'lookup and configuration': [
    { name: 'a device without a template', template: null, expect: { reason: 'DEVICE_NOT_CONFIGURED' } },
    {
      name: "a template whose action is not the gate's action",
      template: { actionId: 2 },
      expect: { reason: 'DEVICE_NOT_CONFIGURED' },
    },
    { name: 'no action', action: null, expect: { reason: 'DEVICE_NOT_CONFIGURED' } },
    {
      name: 'unknown code (D18: the data carry the normalised code)',
      person: null,
      req: { code: '  XYZ\r\n' },
      expect: { reason: 'NOT_FOUND', data: { code: 'XYZ' } },
    },
    {
      name: 'a code of another action of the subject',
      person: null,
      personOfOtherAction: true,
      expect: { reason: 'OTHER_ACTION' },
    },
    { name: 'a person of another action passed in', person: { actionId: 2 }, expect: { reason: 'OTHER_ACTION' } },
    {
      name: 'a mode-3 template without a zone',
      template: { mode: 3, zoneId: null },
      expect: { reason: 'DEVICE_NOT_CONFIGURED' },
    },
  ],
  'mode 1 entry: D1 entrances count entries, exits never use one': [
    {
      name: 'first entry of 2',
      template: { rules: [rule({ entrances: 2 })] },
      expect: {
        reason: 'OK',
        data: { used: 1, allowed: 2, day: '2026-07-11' },
        effects: [{ kind: 'passage', type: 1, day: '2026-07-11' }],
      },
    },
    {
      name: '2 of 2 used',
      template: { rules: [rule({ entrances: 2 })] },
      state: { passages: [entry('2026-07-10 08:12'), exit('2026-07-10 09:00'), entry('2026-07-11 10:00')] },
      expect: {
        reason: 'ENTRANCES_USED',
        allowed: false,
        data: { used: 2, allowed: 2, firstDay: '2026-07-10', firstTime: '08:12' },
        effects: [],
      },
    },
    {
      name: 'exits do not use an entrance',
      template: { rules: [rule({ entrances: 2 })] },
      state: { passages: [entry('2026-07-10 08:12'), exit('2026-07-10 09:00'), exit('2026-07-11 09:00')] },
      expect: { reason: 'OK', data: { used: 2, allowed: 2 } },
    },
    {
      name: 're-entry after an exit uses another entrance',
      template: { rules: [rule({ entrances: 1 })] },
      state: { passages: [entry('2026-07-10 08:12'), exit('2026-07-10 09:00')] },
      expect: { reason: 'ENTRANCES_USED' },
    },
    {
      name: '0 entrances = unlimited',
      template: { rules: [rule({ entrances: 0 })] },
      state: { passages: Array.from({ length: 50 }, () => entry('2026-07-11 08:00')) },
      expect: { reason: 'OK', data: { used: 51, allowed: 0 } },
    },
    {
      name: 'daily budget counts today only',
      template: { rules: [rule({ entrances: 2, daily: true })] },
      state: { passages: [entry('2026-07-10 08:00'), entry('2026-07-10 09:00'), entry('2026-07-11 08:12')] },
      expect: { reason: 'OK', data: { used: 2, allowed: 2, daily: 1 } },
    },
    {
      name: 'daily budget used today',
      template: { rules: [rule({ entrances: 2, daily: true })] },
      state: { passages: [entry('2026-07-11 08:12'), exit('2026-07-11 09:00'), entry('2026-07-11 11:00')] },
      expect: {
        reason: 'DAILY_ENTRANCES_USED',
        data: { used: 2, allowed: 2, firstTime: '08:12', firstDay: '2026-07-11' },
      },
    },
  ],
  'D2 counts per template (the state holds the passages of every device of this template)': [
    {
      name: 'passages from another device of the same template count',
      template: { rules: [rule({ entrances: 1 })] },
      state: { passages: [entry('2026-07-11 07:00')] },
      expect: { reason: 'ENTRANCES_USED' },
    },
    {
      name: 'mode 3 checks write no passage, so they never count',
      template: {
        mode: 3,
        zoneId: 5,
        globalRule: { enabled: true, entrances: 0, daily: false, levelId: 0, info: true },
      },
      expect: { reason: 'OK', effects: [{ kind: 'check' }], info: true },
    },
  ],
  'D3 mode 1 needs a group; modes 2–5 do not': [
    { name: 'mode 1 without a group', person: { groupIds: [] }, expect: { reason: 'NO_GROUP' } },
    {
      name: 'mode 1 without a group, even with an enabled global rule',
      person: { groupIds: [] },
      template: { rules: [], globalRule: { enabled: true, entrances: 0, daily: false, levelId: 0, info: false } },
      expect: { reason: 'NO_GROUP' },
    },
    {
      name: 'mode 2 without a group',
      person: { groupIds: [] },
      template: { mode: 2 },
      req: { amount: 10 },
      expect: { reason: 'OK', effects: [{ kind: 'credit', amount: 10, balanceAfter: 90 }] },
    },
    {
      name: 'mode 3 without a group',
      person: { groupIds: [] },
      template: { mode: 3, zoneId: 5 },
      expect: { reason: 'OK' },
    },
    {
      name: 'mode 4 without a group',
      person: { groupIds: [], meals: [{ id: 1, date: '2026-07-11', timeFrom: '11:30', timeTo: '13:30', used: false }] },
      template: { mode: 4 },
      expect: { reason: 'OK' },
    },
    {
      name: 'mode 5 without a group',
      person: { groupIds: [], parking: [{ areaId: 3, capacity: null }] },
      template: { mode: 5 },
      expect: { reason: 'OK' },
    },
  ],
  'D4 rule lookup': [
    {
      name: "the primary group's rule wins over an earlier rule of another group",
      person: { groupIds: [10, 20] },
      template: {
        rules: [rule({ groupId: 20, entrances: 5, info: false }), rule({ groupId: 10, entrances: 1, info: true })],
      },
      state: { passages: [entry('2026-07-11 08:00')] },
      expect: { reason: 'ENTRANCES_USED', data: { allowed: 1 }, info: true },
    },
    {
      name: 'else the first rule in template order of another of the groups',
      person: { groupIds: [10, 20, 30] },
      template: {
        rules: [rule({ groupId: 99 }), rule({ groupId: 30, entrances: 3 }), rule({ groupId: 20, entrances: 1 })],
      },
      expect: { reason: 'OK', data: { allowed: 3 } },
    },
    {
      name: 'else the enabled global rule',
      person: { groupIds: [40] },
      template: {
        rules: [rule({ groupId: 10 })],
        globalRule: { enabled: true, entrances: 4, daily: true, levelId: 2, info: true },
      },
      expect: { reason: 'OK', data: { allowed: 4, daily: 1 }, info: true },
    },
    {
      name: 'a disabled global rule does not apply',
      person: { groupIds: [40] },
      template: { rules: [], globalRule: { enabled: false, entrances: 0, daily: false, levelId: 0, info: false } },
      expect: { reason: 'NO_RULE', data: { groupId: 40 } },
    },
    { name: 'else NO_RULE', person: { groupIds: [40] }, expect: { reason: 'NO_RULE' } },
  ],
  'D5 multi-day actions: today must be one of the days': [
    {
      name: 'registered for today',
      action: MULTI_DAY,
      person: { days: ['2026-07-11'] },
      expect: { reason: 'OK' },
    },
    {
      name: 'registered for other days',
      action: MULTI_DAY,
      person: { days: ['2026-07-12', '2026-07-10'] },
      expect: { reason: 'DAY_NOT_REGISTERED', data: { day: '2026-07-11', days: '2026-07-10, 2026-07-12' } },
    },
    {
      name: 'no days means no day',
      action: MULTI_DAY,
      person: { days: [] },
      expect: { reason: 'DAY_NOT_REGISTERED', data: { days: '' } },
    },
    { name: 'a single-day action ignores days', person: { days: [] }, expect: { reason: 'OK' } },
    {
      name: 'mode 3 ignores days',
      action: MULTI_DAY,
      template: { mode: 3, zoneId: 5 },
      person: { days: [] },
      expect: { reason: 'OK' },
    },
  ],
  'D6 exits of a known accreditation are always recorded': [
    {
      name: 'exit with every entrance used',
      template: { rules: [rule({ entrances: 1 })] },
      state: { passages: [entry('2026-07-11 08:00')] },
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT', effects: [{ kind: 'passage', type: 0, day: '2026-07-11' }] },
    },
    {
      name: 'exit without a group or rule',
      person: { groupIds: [] },
      template: { rules: [] },
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT' },
    },
    {
      name: 'exit outside the zone',
      template: { zoneId: 9 },
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT' },
    },
    {
      name: 'exit on a day the person is not registered for',
      action: MULTI_DAY,
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT' },
    },
    {
      name: 'exit with an invalid custom date',
      template: {
        rules: [
          rule({
            customRule: [{ customField: 4, type: 'date', values: { system: 'today', check: 'eq', entrances: 0 } }],
          }),
        ],
      },
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT' },
    },
    {
      name: 'an unknown code is not an exit',
      person: null,
      req: { direction: 'exit' },
      expect: { reason: 'NOT_FOUND' },
    },
  ],
  'D7 no anti-passback in mode 1': [
    {
      name: 'entry while inside',
      template: { rules: [rule({ entrances: 3 })] },
      state: { passages: [entry('2026-07-11 08:00')] },
      expect: { reason: 'OK', data: { used: 2 } },
    },
  ],
  'D8 every mode refuses outside the action dates (local)': [
    {
      name: 'the day before dateFrom',
      req: { at: at('2026-07-09 23:59') },
      expect: {
        reason: 'OUTSIDE_ACTION_DATES',
        data: { dateFrom: '2026-07-10', dateTo: '2026-07-12', timeTo: '23:59' },
      },
    },
    { name: 'dateFrom 00:00', req: { at: at('2026-07-10 00:00') }, expect: { reason: 'OK' } },
    { name: 'dateTo 23:59 (default end)', req: { at: at('2026-07-12 23:59') }, expect: { reason: 'OK' } },
    { name: 'the day after dateTo', req: { at: at('2026-07-13 00:00') }, expect: { reason: 'OUTSIDE_ACTION_DATES' } },
    {
      name: 'after an explicit end time',
      action: { timeTo: '18:00' },
      req: { at: at('2026-07-12 18:01') },
      expect: { reason: 'OUTSIDE_ACTION_DATES', data: { timeTo: '18:00' } },
    },
    {
      name: 'exits too',
      req: { at: at('2026-07-13 08:00'), direction: 'exit' },
      expect: { reason: 'OUTSIDE_ACTION_DATES' },
    },
    {
      name: 'mode 2',
      template: { mode: 2 },
      req: { at: at('2026-07-13 08:00'), amount: 5 },
      expect: { reason: 'OUTSIDE_ACTION_DATES' },
    },
    {
      name: 'mode 3',
      template: { mode: 3, zoneId: 5 },
      req: { at: at('2026-07-09 08:00') },
      expect: { reason: 'OUTSIDE_ACTION_DATES' },
    },
    {
      name: 'mode 4',
      template: { mode: 4 },
      person: { meals: [{ id: 1, date: '2026-07-13', timeFrom: '07:00', timeTo: '09:00', used: false }] },
      req: { at: at('2026-07-13 08:00') },
      expect: { reason: 'OUTSIDE_ACTION_DATES' },
    },
    {
      name: 'mode 5',
      template: { mode: 5 },
      person: { parking: [{ areaId: 3, capacity: null }] },
      req: { at: at('2026-07-13 08:00') },
      expect: { reason: 'OUTSIDE_ACTION_DATES' },
    },
    {
      name: 'D19: decided at req.at, not on the machine clock',
      req: { at: at('2026-07-11 09:00') },
      expect: { reason: 'OK', data: { day: '2026-07-11', time: '09:00' } },
    },
  ],
  'D9 custom date rules': [
    ...(
      [
        ['gte', '2026-07-11', 'OK'],
        ['gte', '2026-07-10', 'OK'],
        ['gte', '2026-07-12', 'CUSTOM_DATE_NOT_YET'],
        ['lte', '2026-07-11', 'OK'],
        ['lte', '2026-07-12', 'OK'],
        ['lte', '2026-07-10', 'CUSTOM_DATE_PASSED'],
        ['eq', '2026-07-11', 'OK'],
        ['eq', '2026-07-12', 'CUSTOM_DATE_OTHER_DAY'],
      ] as const
    ).map(
      ([check, date, reason]): Case => ({
        name: `${check} ${date} on 2026-07-11`,
        person: { values: { 4: date } },
        template: {
          rules: [
            rule({ customRule: [{ customField: 4, type: 'date', values: { system: 'today', check, entrances: 0 } }] }),
          ],
        },
        expect: { reason, data: reason === 'OK' ? {} : { date, fieldId: 4 } },
      }),
    ),
    {
      name: "a matching custom rule's budget replaces the group's",
      person: { values: { 4: '2026-07-11' } },
      template: {
        rules: [
          rule({
            entrances: 5,
            customRule: [{ customField: 4, type: 'date', values: { system: 'today', check: 'eq', entrances: 1 } }],
          }),
        ],
      },
      state: { passages: [entry('2026-07-11 08:00')] },
      expect: { reason: 'ENTRANCES_USED', data: { allowed: 1 } },
    },
    {
      name: "a custom rule's 0 is unlimited, even under a limited group rule",
      person: { values: { 4: '2026-07-11' } },
      template: {
        rules: [
          rule({
            entrances: 1,
            customRule: [{ customField: 4, type: 'date', values: { system: 'today', check: 'eq', entrances: 0 } }],
          }),
        ],
      },
      state: { passages: [entry('2026-07-11 08:00')] },
      expect: { reason: 'OK', data: { allowed: 0 } },
    },
    {
      name: 'several custom rules must all match (valid from and until)',
      person: { values: { 4: '2026-07-10', 6: '2026-07-10' } },
      template: {
        rules: [
          rule({
            customRule: [
              { customField: 4, type: 'date', values: { system: 'today', check: 'gte', entrances: 0 } },
              { customField: 6, type: 'date', values: { system: 'today', check: 'lte', entrances: 0 } },
            ],
          }),
        ],
      },
      expect: { reason: 'CUSTOM_DATE_PASSED', data: { fieldId: 6 } },
    },
    {
      name: 'several matching custom rules: the strictest limited budget applies',
      person: { values: { 4: '2026-07-10', 6: '2026-07-12' } },
      template: {
        rules: [
          rule({
            customRule: [
              { customField: 4, type: 'date', values: { system: 'today', check: 'gte', entrances: 3 } },
              { customField: 6, type: 'date', values: { system: 'today', check: 'lte', entrances: 2 } },
            ],
          }),
        ],
      },
      state: { passages: [entry('2026-07-11 08:00'), entry('2026-07-11 09:00')] },
      expect: { reason: 'ENTRANCES_USED', data: { allowed: 2 } },
    },
    {
      name: 'the custom budget is per day when the rule is daily',
      person: { values: { 4: '2026-07-10' } },
      template: {
        rules: [
          rule({
            daily: true,
            customRule: [{ customField: 4, type: 'date', values: { system: 'today', check: 'gte', entrances: 1 } }],
          }),
        ],
      },
      state: { passages: [entry('2026-07-10 08:00')] },
      expect: { reason: 'OK', data: { allowed: 1, used: 1 } },
    },
    {
      name: 'a date with surrounding spaces is read',
      person: { values: { 4: ' 2026-07-11 ' } },
      template: {
        rules: [
          rule({
            customRule: [{ customField: 4, type: 'date', values: { system: 'today', check: 'eq', entrances: 0 } }],
          }),
        ],
      },
      expect: { reason: 'OK' },
    },
  ],
  'D10 an empty or malformed date refuses with CUSTOM_DATE_INVALID': (
    [undefined, null, '', 'abc', '2026-02-30', '2026-7-11', '11.07.2026', '2026-07-11T10:00'] as const
  ).map(
    (value): Case => ({
      name: `value ${JSON.stringify(value)}`,
      person: { values: value === undefined ? {} : { 4: value } },
      template: {
        rules: [
          rule({
            customRule: [{ customField: 4, type: 'date', values: { system: 'today', check: 'gte', entrances: 0 } }],
          }),
        ],
      },
      expect: { reason: 'CUSTOM_DATE_INVALID', allowed: false, data: { fieldId: 4 } },
    }),
  ),
  'D11 mode 3 zone check': [
    {
      name: 'own zone',
      template: { mode: 3, zoneId: 5 },
      expect: { reason: 'OK', data: { zoneId: 5 }, effects: [{ kind: 'check' }] },
    },
    {
      name: 'another zone',
      template: { mode: 3, zoneId: 9 },
      expect: { reason: 'ZONE_NOT_ALLOWED', data: { zoneId: 9 }, effects: [] },
    },
    {
      name: 'ignores direction (exit checks the zone too, no exit row)',
      template: { mode: 3, zoneId: 9 },
      req: { direction: 'exit' },
      expect: { reason: 'ZONE_NOT_ALLOWED' },
    },
    {
      name: 'ignores direction (allowed exit is a check)',
      template: { mode: 3, zoneId: 5 },
      req: { direction: 'exit' },
      expect: { reason: 'OK', effects: [{ kind: 'check' }] },
    },
    {
      name: 'ignores groups, rules and limits',
      template: { mode: 3, zoneId: 5, rules: [rule({ entrances: 1 })] },
      person: { groupIds: [] },
      state: { passages: [entry('2026-07-11 08:00'), entry('2026-07-11 09:00')] },
      expect: { reason: 'OK' },
    },
    {
      name: 'shows info from the forced global rule',
      template: {
        mode: 3,
        zoneId: 9,
        globalRule: { enabled: true, entrances: 0, daily: false, levelId: 0, info: true },
      },
      expect: { reason: 'ZONE_NOT_ALLOWED', info: true },
    },
  ],
  'D12 a mode-1 template with a zone requires it': [
    { name: 'has the zone', template: { zoneId: 5 }, expect: { reason: 'OK' } },
    { name: 'lacks the zone', template: { zoneId: 9 }, expect: { reason: 'ZONE_NOT_ALLOWED', data: { zoneId: 9 } } },
    {
      name: 'no zones at all',
      template: { zoneId: 9 },
      person: { zoneIds: [] },
      expect: { reason: 'ZONE_NOT_ALLOWED' },
    },
  ],
  'D13 mode 2 credit': [
    {
      name: 'deducts the amount',
      template: { mode: 2 },
      req: { amount: 30 },
      expect: {
        reason: 'OK',
        data: { amount: 30, balance: 70 },
        effects: [{ kind: 'credit', amount: 30, balanceAfter: 70 }],
      },
    },
    {
      name: 'the whole balance',
      template: { mode: 2 },
      req: { amount: 100 },
      expect: { reason: 'OK', effects: [{ kind: 'credit', amount: 100, balanceAfter: 0 }] },
    },
    {
      name: 'never below 0 online',
      template: { mode: 2 },
      req: { amount: 101 },
      expect: { reason: 'CREDIT_INSUFFICIENT', data: { amount: 101, balance: 100 }, effects: [] },
    },
    {
      name: 'D20 offline the balance may go negative',
      template: { mode: 2 },
      offline: true,
      req: { amount: 130 },
      expect: { reason: 'OK', effects: [{ kind: 'credit', amount: 130, balanceAfter: -30 }] },
    },
    {
      name: 'unlimited: allowed, balance unchanged, a transaction still written',
      template: { mode: 2 },
      person: { isUnlimited: true, credit: 0 },
      req: { amount: 500 },
      expect: { reason: 'OK', data: { unlimited: 1 }, effects: [{ kind: 'credit', amount: 500, balanceAfter: 0 }] },
    },
    {
      name: 'a null balance is 0',
      template: { mode: 2 },
      person: { credit: null as unknown as number },
      req: { amount: 1 },
      expect: { reason: 'CREDIT_INSUFFICIENT', data: { balance: 0 } },
    },
    {
      name: 'credit not enabled for the action',
      template: { mode: 2 },
      action: { isCredit: false },
      req: { amount: 5 },
      expect: { reason: 'CREDIT_NOT_ENABLED' },
    },
    ...([undefined, null, 0, -5, 2.5, Number.NaN, Number.POSITIVE_INFINITY, '10' as unknown as number] as const).map(
      (amount): Case => ({
        name: `amount ${String(amount)}`,
        template: { mode: 2 },
        req: { amount },
        expect: { reason: 'AMOUNT_INVALID', allowed: false, effects: [] },
      }),
    ),
    {
      name: 'direction is ignored',
      template: { mode: 2 },
      req: { amount: 10, direction: 'exit' },
      expect: { reason: 'OK', effects: [{ kind: 'credit', amount: 10, balanceAfter: 90 }] },
    },
    {
      name: 'no limits or zones apply',
      template: { mode: 2, zoneId: 9, rules: [rule({ entrances: 1, info: true })] },
      state: { passages: [entry('2026-07-11 08:00')] },
      req: { amount: 10 },
      expect: { reason: 'OK', info: true },
    },
  ],
  'D14 mode 4 meals': [
    ...(() => {
      const lunch = { id: 2, date: '2026-07-11', timeFrom: '11:30', timeTo: '13:30', used: false };
      const breakfast = { id: 1, date: '2026-07-11', timeFrom: '07:00', timeTo: '09:00', used: false };
      const dinner = { id: 3, date: '2026-07-11', timeFrom: '18:00', timeTo: '20:00', used: false };
      const tomorrow = { id: 4, date: '2026-07-12', timeFrom: '07:00', timeTo: '09:00', used: false };
      const meal = (meals: (typeof lunch)[], time: string, over: Partial<Case> = {}) => ({
        template: { mode: 4 as const },
        person: { meals },
        req: { at: at(`2026-07-11 ${time}`) },
        ...over,
      });
      return [
        {
          name: 'the slot covering now',
          ...meal([breakfast, lunch, dinner], '12:00'),
          expect: { reason: 'OK', data: { slotId: 2 }, effects: [{ kind: 'meal', slotId: 2 }] },
        },
        { name: 'timeFrom is included', ...meal([lunch], '11:30'), expect: { reason: 'OK' } },
        {
          name: 'timeTo is excluded: names the next slot',
          ...meal([lunch, dinner], '13:30'),
          expect: { reason: 'MEAL_NOT_NOW', data: { slotId: 3, slotFrom: '18:00', next: 1 } },
        },
        {
          name: 'between slots: the next one',
          ...meal([dinner, breakfast, tomorrow], '10:00'),
          expect: { reason: 'MEAL_NOT_NOW', data: { slotId: 3, slotDate: '2026-07-11' } },
        },
        {
          name: 'after the last slot of today: tomorrow',
          ...meal([breakfast, tomorrow], '21:00'),
          expect: { reason: 'MEAL_NOT_NOW', data: { slotId: 4, slotDate: '2026-07-12' } },
        },
        {
          name: 'after every slot: the last past one',
          ...meal([lunch, breakfast], '21:00'),
          expect: { reason: 'MEAL_NOT_NOW', data: { slotId: 2, next: 0 } },
        },
        {
          name: 'the slot covering now was used',
          ...meal([{ ...lunch, used: true }], '12:00'),
          expect: { reason: 'MEAL_USED', data: { slotId: 2, slotFrom: '11:30', slotTo: '13:30' } },
        },
        {
          name: 'a slot of another day at the same hour does not cover now',
          ...meal([{ ...lunch, date: '2026-07-10' }], '12:00'),
          expect: { reason: 'MEAL_NOT_NOW' },
        },
        { name: 'no meals', ...meal([], '12:00'), expect: { reason: 'MEAL_NONE' } },
        {
          name: 'direction is ignored',
          ...meal([lunch], '12:00', { req: { at: at('2026-07-11 12:00'), direction: 'exit' } }),
          expect: { reason: 'OK' },
        },
      ] as Case[];
    })(),
  ],
  'D15 mode 5 parking': [
    {
      name: 'entry below capacity',
      template: { mode: 5 },
      person: { parking: [{ areaId: 3, capacity: 10 }] },
      state: { parkingOccupancy: { 3: 9 } },
      expect: {
        reason: 'OK',
        data: { areaId: 3, occupancy: 10, capacity: 10 },
        effects: [{ kind: 'parking', areaId: 3, type: 1 }],
      },
    },
    {
      name: 'refused at capacity',
      template: { mode: 5 },
      person: { parking: [{ areaId: 3, capacity: 10 }] },
      state: { parkingOccupancy: { 3: 10 } },
      expect: { reason: 'PARKING_FULL', data: { areaId: 3, occupancy: 10, capacity: 10 }, effects: [] },
    },
    {
      name: 'unlimited capacity',
      template: { mode: 5 },
      person: { parking: [{ areaId: 3, capacity: null }] },
      state: { parkingOccupancy: { 3: 10_000 } },
      expect: { reason: 'OK', data: { capacity: null } },
    },
    {
      name: 'already inside',
      template: { mode: 5 },
      person: { parking: [{ areaId: 3, capacity: 10 }] },
      state: { parkingOccupancy: { 3: 1 }, parkingInside: [3] },
      expect: { reason: 'PARKING_ALREADY_INSIDE', data: { areaId: 3 } },
    },
    {
      name: 'a second area when the first is full',
      template: { mode: 5 },
      person: {
        parking: [
          { areaId: 3, capacity: 1 },
          { areaId: 4, capacity: 1 },
        ],
      },
      state: { parkingOccupancy: { 3: 1 } },
      expect: { reason: 'OK', data: { areaId: 4 }, effects: [{ kind: 'parking', areaId: 4, type: 1 }] },
    },
    {
      name: 'exit from the area the person is inside',
      template: { mode: 5 },
      person: {
        parking: [
          { areaId: 3, capacity: 1 },
          { areaId: 4, capacity: 1 },
        ],
      },
      state: { parkingOccupancy: { 4: 1 }, parkingInside: [4] },
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT', effects: [{ kind: 'parking', areaId: 4, type: 0 }] },
    },
    {
      name: 'D6: an exit is recorded even when not seen inside',
      template: { mode: 5 },
      person: { parking: [{ areaId: 3, capacity: 1 }] },
      req: { direction: 'exit' },
      expect: { reason: 'OK_EXIT', effects: [{ kind: 'parking', areaId: 3, type: 0 }] },
    },
    { name: 'no parking', template: { mode: 5 }, expect: { reason: 'PARKING_NONE' } },
    { name: 'no parking, exit', template: { mode: 5 }, req: { direction: 'exit' }, expect: { reason: 'PARKING_NONE' } },
  ],
  'D19 time zones: today and windows on the subject clock': [
    // 2026-07-10T22:30Z is 07-11 00:30 in Prague, 07-10 18:30 in New York, 07-11 10:30 in Auckland
    ...(
      [
        [PRAGUE, 'OK', '2026-07-11'],
        [NEW_YORK, 'OUTSIDE_ACTION_DATES', '2026-07-10'],
        [AUCKLAND, 'OK', '2026-07-11'],
      ] as const
    ).map(
      ([timeZone, reason, day]): Case => ({
        name: `the action from 07-11 in ${timeZone}`,
        action: { dateFrom: '2026-07-11' },
        req: { at: Date.parse('2026-07-10T22:30:00Z'), timeZone },
        expect: { reason, data: { day } },
      }),
    ),
    ...(
      [
        [PRAGUE, 'OK'],
        [NEW_YORK, 'DAILY_ENTRANCES_USED'],
        [AUCKLAND, 'DAILY_ENTRANCES_USED'],
      ] as const
    ).map(
      ([timeZone, reason]): Case => ({
        name: `a daily limit of 1: 21:30Z and 22:30Z are one day in ${timeZone}`,
        template: { rules: [rule({ entrances: 1, daily: true })] },
        state: { passages: [{ type: 1, at: Date.parse('2026-07-10T21:30:00Z') }] },
        req: { at: Date.parse('2026-07-10T22:30:00Z'), timeZone },
        expect: { reason },
      }),
    ),
    {
      name: 'the passage effect carries the local day',
      req: { at: Date.parse('2026-07-10T23:30:00Z'), timeZone: AUCKLAND },
      expect: { reason: 'OK', effects: [{ kind: 'passage', type: 1, day: '2026-07-11' }] },
    },
    {
      name: 'the first entry time is shown on the subject clock',
      template: { rules: [rule({ entrances: 1 })] },
      state: { passages: [{ type: 1, at: Date.parse('2026-07-11T06:12:00Z') }] },
      req: { at: Date.parse('2026-07-11T16:00:00Z'), timeZone: NEW_YORK },
      expect: { reason: 'ENTRANCES_USED', data: { firstTime: '02:12', firstDay: '2026-07-11' } },
    },
    {
      name: 'meal slots on the subject clock',
      template: { mode: 4 },
      person: { meals: [{ id: 1, date: '2026-07-11', timeFrom: '12:00', timeTo: '13:00', used: false }] },
      req: { at: Date.parse('2026-07-11T16:30:00Z'), timeZone: NEW_YORK },
      expect: { reason: 'OK', data: { time: '12:30' } },
    },
  ],
  'daylight saving: Europe/Prague 2026-10-25 03:00 CEST → 02:00 CET': (() => {
    const action = { dateFrom: '2026-10-24', dateTo: '2026-10-26' };
    const slot = { id: 1, date: '2026-10-25', timeFrom: '02:00', timeTo: '03:00', used: false };
    return [
      {
        name: '02:30 CEST (00:30Z) is in the slot [02:00, 03:00)',
        action,
        template: { mode: 4 },
        person: { meals: [slot] },
        req: { at: Date.parse('2026-10-25T00:30:00Z') },
        expect: { reason: 'OK', data: { time: '02:30', day: '2026-10-25' }, effects: [{ kind: 'meal', slotId: 1 }] },
      },
      {
        name: '02:30 CET (01:30Z), the second 02:30 of the night, is in the slot too: used once',
        action,
        template: { mode: 4 },
        person: { meals: [{ ...slot, used: true }] },
        req: { at: Date.parse('2026-10-25T01:30:00Z') },
        expect: { reason: 'MEAL_USED', data: { time: '02:30' } },
      },
      {
        name: '03:00 CET (02:00Z) is after the slot',
        action,
        template: { mode: 4 },
        person: { meals: [slot] },
        req: { at: Date.parse('2026-10-25T02:00:00Z') },
        expect: { reason: 'MEAL_NOT_NOW', data: { next: 0, time: '03:00' } },
      },
      {
        name: 'a daily count over the 25-hour day: 00:30 and 23:30 are one day',
        action,
        template: { rules: [rule({ entrances: 1, daily: true })] },
        state: { passages: [{ type: 1, at: Date.parse('2026-10-24T22:30:00Z') }] },
        req: { at: Date.parse('2026-10-25T22:30:00Z') },
        expect: { reason: 'DAILY_ENTRANCES_USED', data: { firstTime: '00:30', day: '2026-10-25' } },
      },
      {
        name: 'and 00:30 the next day is a new day',
        action,
        template: { rules: [rule({ entrances: 1, daily: true })] },
        state: { passages: [{ type: 1, at: Date.parse('2026-10-24T22:30:00Z') }] },
        req: { at: Date.parse('2026-10-25T23:30:00Z') },
        expect: { reason: 'OK', effects: [{ kind: 'passage', type: 1, day: '2026-10-26' }] },
      },
    ] as Case[];
  })(),
  'daylight saving: spring forward (02:30 does not exist) and Auckland': [
    {
      name: 'Prague 2026-03-29: 01:00Z is 03:00 CEST, after a [02:00, 03:00) slot',
      action: { dateFrom: '2026-03-29', dateTo: '2026-03-29' },
      template: { mode: 4 },
      person: { meals: [{ id: 1, date: '2026-03-29', timeFrom: '02:00', timeTo: '03:00', used: false }] },
      req: { at: Date.parse('2026-03-29T01:00:00Z') },
      expect: { reason: 'MEAL_NOT_NOW', data: { time: '03:00', next: 0 } },
    },
    {
      name: 'Prague 2026-03-29: 00:59Z is 01:59 CET, before it',
      action: { dateFrom: '2026-03-29', dateTo: '2026-03-29' },
      template: { mode: 4 },
      person: { meals: [{ id: 1, date: '2026-03-29', timeFrom: '02:00', timeTo: '03:00', used: false }] },
      req: { at: Date.parse('2026-03-29T00:59:00Z') },
      expect: { reason: 'MEAL_NOT_NOW', data: { time: '01:59', next: 1 } },
    },
    {
      name: 'Prague 2026-03-29: a slot [01:30, 03:30) spans the gap',
      action: { dateFrom: '2026-03-29', dateTo: '2026-03-29' },
      template: { mode: 4 },
      person: { meals: [{ id: 1, date: '2026-03-29', timeFrom: '01:30', timeTo: '03:30', used: false }] },
      req: { at: Date.parse('2026-03-29T01:15:00Z') },
      expect: { reason: 'OK', data: { time: '03:15' } },
    },
    {
      name: 'Auckland 2026-04-05: both 02:30s are one day for a daily limit',
      action: { dateFrom: '2026-04-05', dateTo: '2026-04-05' },
      template: { rules: [rule({ entrances: 1, daily: true })] },
      state: { passages: [{ type: 1, at: Date.parse('2026-04-04T13:30:00Z') }] },
      req: { at: Date.parse('2026-04-04T14:30:00Z'), timeZone: AUCKLAND },
      expect: { reason: 'DAILY_ENTRANCES_USED', data: { firstTime: '02:30', time: '02:30', day: '2026-04-05' } },
    },
  ],
  'badge versions (a reprint that retires the old badge)': [
    {
      name: 'the valid badge of version 2 enters',
      person: { badgeVersion: 2 },
      req: { code: 'ABC123-2' },
      expect: { reason: 'OK', data: { code: 'ABC123-2' } },
    },
    {
      name: 'the first badge (plain bc) of a person still at version 0 enters',
      person: { badgeVersion: 0 },
      expect: { reason: 'OK', data: { code: 'ABC123' } },
    },
    {
      name: 'a person without a version (older callers) is at version 0',
      person: { badgeVersion: undefined },
      expect: { reason: 'OK' },
    },
    {
      name: 'the plain bc after one replacement: superseded, with when it was retired',
      person: { badgeVersion: 1, badgeReplacedAt: at('2026-07-10 18:05') },
      expect: {
        reason: 'BADGE_SUPERSEDED',
        data: { code: 'ABC123', version: 0, current: 1, retiredDay: '2026-07-10', retiredTime: '18:05' },
      },
    },
    {
      name: 'an older badge than the one before the valid one: superseded, its retirement time unknown',
      person: { badgeVersion: 3, badgeReplacedAt: at('2026-07-10 18:05') },
      req: { code: 'ABC123-1' },
      expect: { reason: 'BADGE_SUPERSEDED', data: { version: 1, current: 3 } },
    },
    {
      name: 'the retirement time is read on the subject’s clock',
      person: { badgeVersion: 1, badgeReplacedAt: Date.parse('2026-07-11T02:30:00Z') },
      req: { timeZone: NEW_YORK, at: Date.parse('2026-07-11T16:00:00Z') },
      expect: { reason: 'BADGE_SUPERSEDED', data: { retiredDay: '2026-07-10', retiredTime: '22:30' } },
    },
    {
      name: 'a superseded badge cannot leave either (it is no credential; D6 records exits of valid badges)',
      person: { badgeVersion: 1 },
      req: { direction: 'exit' },
      expect: { reason: 'BADGE_SUPERSEDED' },
    },
    {
      name: 'mode 2: a superseded badge deducts nothing',
      template: { mode: 2 },
      person: { badgeVersion: 1 },
      req: { amount: 10 },
      expect: { reason: 'BADGE_SUPERSEDED' },
    },
    {
      name: 'mode 3',
      template: { mode: 3, zoneId: 5 },
      person: { badgeVersion: 1 },
      expect: { reason: 'BADGE_SUPERSEDED' },
    },
    {
      name: 'mode 4',
      template: { mode: 4 },
      person: {
        badgeVersion: 2,
        meals: [{ id: 1, date: '2026-07-11', timeFrom: '11:00', timeTo: '14:00', used: false }],
      },
      req: { code: 'ABC123-1' },
      expect: { reason: 'BADGE_SUPERSEDED' },
    },
    {
      name: 'mode 5, exit',
      template: { mode: 5 },
      person: { badgeVersion: 1, parking: [{ areaId: 3, capacity: null }] },
      req: { direction: 'exit' },
      expect: { reason: 'BADGE_SUPERSEDED' },
    },
    {
      name: 'superseded comes before the action dates (D8)',
      action: { dateFrom: '2026-08-01', dateTo: '2026-08-02' },
      person: { badgeVersion: 1 },
      expect: { reason: 'BADGE_SUPERSEDED' },
    },
    {
      name: 'D20: an offline scan from before the replacement, replayed later, was a valid badge then',
      person: { badgeVersion: 1, badgeReplacedAt: at('2026-07-11 12:30') },
      expect: { reason: 'OK', data: { code: 'ABC123' } },
    },
    {
      name: 'D20: … but not a badge retired earlier still (its retirement time is unknown)',
      person: { badgeVersion: 2, badgeReplacedAt: at('2026-07-11 12:30') },
      expect: { reason: 'BADGE_SUPERSEDED', data: { version: 0, current: 2 } },
    },
    {
      name: 'a version above the valid one was never printed (forged): NOT_FOUND',
      person: { badgeVersion: 1 },
      req: { code: 'ABC123-2' },
      expect: { reason: 'NOT_FOUND', data: { code: 'ABC123-2' } },
    },
    {
      name: 'a version on a person still at version 0: NOT_FOUND',
      req: { code: 'ABC123-1' },
      expect: { reason: 'NOT_FOUND' },
    },
    {
      name: 'the versioned code is normalised (D18) before it is read',
      person: { badgeVersion: 4 },
      req: { code: '\\000001ABC123-4\r\n' },
      expect: { reason: 'OK', data: { code: 'ABC123-4' } },
    },
  ],
  'D18 codes in the request are normalised': [
    {
      name: 'ECI prefix and CR LF',
      req: { code: '\\000001ABC123\r\n' },
      expect: { reason: 'OK', data: { code: 'ABC123' } },
    },
  ],
};

describe('decide', () => {
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
        const d = run(c);
        expect(d.reason).toBe(c.expect.reason);
        expect(d.allowed).toBe(c.expect.allowed ?? ALLOWED.includes(c.expect.reason));
        if (c.expect.data) expect(d.data).toMatchObject(c.expect.data);
        if (c.expect.effects) expect(d.effects).toEqual(c.expect.effects);
        if (c.expect.info !== undefined) expect(d.info).toBe(c.expect.info);
        if (!d.allowed) expect(d.effects).toEqual([]);
      });
    });
  }

  it('the table covers every reason the engine can return (NONCE_CONFLICT is the backend’s, D16)', () => {
    const covered = new Set(Object.values(CASES).flatMap((cases) => cases.map((c) => c.expect.reason)));
    expect(REASON_CODES.filter((r) => !covered.has(r))).toEqual(['NONCE_CONFLICT']);
  });

  it('is pure: the same input gives the same decision and the input is not changed', () => {
    const c: Case = {
      name: 'x',
      template: { rules: [rule({ entrances: 2 })] },
      state: { passages: [entry('2026-07-11 08:00')] },
      expect: { reason: 'OK' },
    };
    const a = run(c);
    const b = run(c);
    expect(a).toEqual(b);
    expect(c.state?.passages).toHaveLength(1);
  });

  it('applying the effects in scan order gives exactly the allowed count (D1 with the state passed in)', () => {
    const passages: GateState['passages'] = [];
    const results: ReasonCode[] = [];
    const ctx = (): GateContext => ({
      template: { id: 7, actionId: 1, mode: 1, zoneId: null, rules: [rule({ entrances: 3 })], globalRule: null },
      action: ACTION,
      person: PERSON,
      state: { passages: [...passages] },
    });
    for (let i = 0; i < 6; i++) {
      const t = NOON + i * 60_000;
      const d = decide({ code: 'ABC123', direction: i % 2 ? 'exit' : 'entry', at: t, timeZone: PRAGUE }, ctx());
      for (const e of d.effects) if (e.kind === 'passage') passages.push({ type: e.type, at: t });
      results.push(d.reason);
    }
    for (let i = 0; i < 3; i++) {
      results.push(
        decide({ code: 'ABC123', direction: 'entry', at: NOON + 3_600_000, timeZone: PRAGUE }, ctx()).reason,
      );
    }
    expect(results).toEqual([
      'OK',
      'OK_EXIT',
      'OK',
      'OK_EXIT',
      'OK',
      'OK_EXIT',
      'ENTRANCES_USED',
      'ENTRANCES_USED',
      'ENTRANCES_USED',
    ]);
  });
});

describe('findRule (D4)', () => {
  const template: GateTemplate = {
    id: 1,
    actionId: 1,
    mode: 1,
    zoneId: null,
    rules: [rule({ groupId: 30, levelId: 3 }), rule({ groupId: 20, levelId: 2 }), rule({ groupId: 10, levelId: 1 })],
    globalRule: { enabled: true, entrances: 0, daily: false, levelId: 9, info: false },
  };
  it.each([
    [[10, 20], 1],
    [[20, 10], 2],
    [[40, 20, 30], 3],
    [[40], 9],
  ])('groups %j → level %i', (groupIds, level) => {
    expect(findRule(template, { ...PERSON, groupIds })?.levelId).toBe(level);
  });
});
