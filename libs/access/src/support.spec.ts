import { catalogueKeys, LANGUAGES, resources } from '@accredo/i18n';
import { describe, expect, it } from 'vitest';
import { formatBadgeCode, normalizeCode, parseBadgeCode } from './code.js';
import { formatDay, reasonKey, reasonMessage } from './messages.js';
import { deviceTemplateDataSchema } from './schema.js';
import { isDate, isTime, isTimeZone, localDateTime, localDay, localTime } from './time.js';
import type { Decision, Effect, ReasonCode } from './types.js';
import { REASON_CODES } from './types.js';

describe('normalizeCode (D18)', () => {
  it.each([
    ['ABC123', 'ABC123'],
    ['  ABC123  ', 'ABC123'],
    ['ABC123\r\n', 'ABC123'],
    ['\nABC123\r', 'ABC123'],
    ['\\000001ABC123', 'ABC123'],
    ['\\000001ABC123\r\n', 'ABC123'],
    [' \\000001 ABC123', 'ABC123'],
    ['abc123', 'abc123'],
    ['AB C', 'AB C'],
    ['A\\000001B', 'A\\000001B'],
    ['', ''],
  ])('%j → %j', (raw, code) => {
    expect(normalizeCode(raw)).toBe(code);
  });

  it('does not fold case', () => {
    expect(normalizeCode('aBc')).not.toBe(normalizeCode('ABC'));
  });
});

describe('badge codes (a reprint that retires the old badge)', () => {
  it.each([
    ['ABC123', { bc: 'ABC123', version: 0 }],
    ['ABC123-1', { bc: 'ABC123', version: 1 }],
    ['ABC123-42', { bc: 'ABC123', version: 42 }],
    ['abc-999999999', { bc: 'abc', version: 999_999_999 }],
    [`${'Z'.repeat(32)}-7`, { bc: 'Z'.repeat(32), version: 7 }],
    // not a version: the whole text is looked up as a bc (and found nowhere)
    ['ABC123-0', { bc: 'ABC123-0', version: 0 }],
    ['ABC123-01', { bc: 'ABC123-01', version: 0 }],
    ['ABC123-1234567890', { bc: 'ABC123-1234567890', version: 0 }],
    ['ABC-1-2', { bc: 'ABC-1-2', version: 0 }],
    ['-3', { bc: '-3', version: 0 }],
    [`${'Z'.repeat(33)}-1`, { bc: `${'Z'.repeat(33)}-1`, version: 0 }],
    ['', { bc: '', version: 0 }],
  ])('%j → %j', (code, parsed) => {
    expect(parseBadgeCode(code)).toEqual(parsed);
  });

  it('formats version 0 as the plain bc (badges printed before any replacement) and round-trips', () => {
    expect(formatBadgeCode('ABC123', 0)).toBe('ABC123');
    expect(formatBadgeCode('ABC123', null)).toBe('ABC123');
    expect(formatBadgeCode('ABC123', 3)).toBe('ABC123-3');
    for (const v of [0, 1, 9, 10, 123456])
      expect(parseBadgeCode(formatBadgeCode('Q7', v))).toEqual({ bc: 'Q7', version: v });
  });
});

describe('local time helpers (D19)', () => {
  const t = Date.parse('2026-07-10T22:30:00Z');
  it.each([
    ['Europe/Prague', '2026-07-11', '00:30'],
    ['America/New_York', '2026-07-10', '18:30'],
    ['Pacific/Auckland', '2026-07-11', '10:30'],
    ['UTC', '2026-07-10', '22:30'],
  ])('%s', (tz, day, time) => {
    expect(localDay(t, tz)).toBe(day);
    expect(localTime(t, tz)).toBe(time);
    expect(localDateTime(t, tz)).toEqual({ day, time });
  });

  it('answers from its per-minute memory exactly as Intl does, across a DST change and zones with odd offsets', () => {
    const intl = (at: number, timeZone: string) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-CA', {
          timeZone,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
        })
          .formatToParts(new Date(at))
          .map((x) => [x.type, x.value]),
      );
      return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour === '24' ? '00' : p.hour}:${p.minute}` };
    };
    // Prague's spring change (01:00 UTC), Kathmandu (+05:45), Chatham (+12:45 / +13:45)
    const from = Date.parse('2026-03-29T00:30:00Z');
    for (const tz of ['Europe/Prague', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns']) {
      for (let at = from; at < from + 3 * 3_600_000; at += 7 * 60_000 + 13_000) {
        // twice: the second answer comes from the memory; a caller's change to it stays its own
        const first = localDateTime(at, tz);
        first.day = 'changed';
        expect(localDateTime(at, tz), `${tz} ${new Date(at).toISOString()}`).toEqual(intl(at, tz));
        expect(localDateTime(at + 59_999 - (at % 60_000), tz)).toEqual(intl(at, tz));
      }
    }
  });

  it('midnight is 00:00, not 24:00', () => {
    expect(localTime(Date.parse('2026-07-10T22:00:00Z'), 'Europe/Prague')).toBe('00:00');
  });

  it('checks time zones, dates and times strictly', () => {
    expect(isTimeZone('Europe/Prague')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-13-01')).toBe(false);
    expect(isDate(20260101)).toBe(false);
    expect(isTime('23:59')).toBe(true);
    expect(isTime('24:00')).toBe(false);
    expect(isTime('9:00')).toBe(false);
  });
});

describe('device template data (spec §4 saving rules, §5)', () => {
  const parse = (data: unknown) => deviceTemplateDataSchema.safeParse(data);

  it('mode 3 forces a global rule holding only info', () => {
    const r = parse({
      mode: 3,
      rules: [],
      globalRule: { enabled: false, entrances: 5, daily: true, levelId: 4, info: true },
    });
    expect(r.success && r.data.globalRule).toEqual({
      enabled: true,
      entrances: 0,
      daily: false,
      levelId: 0,
      info: true,
    });
    const none = parse({ mode: 3 });
    expect(none.success && none.data.globalRule).toEqual({
      enabled: true,
      entrances: 0,
      daily: false,
      levelId: 0,
      info: false,
    });
  });

  it('mode 1 keeps the global rule only if enabled', () => {
    const off = parse({
      mode: 1,
      rules: [],
      globalRule: { enabled: false, entrances: 3, daily: false, levelId: 0, info: false },
    });
    expect(off.success && off.data.globalRule).toBeNull();
    const on = parse({
      mode: 1,
      rules: [],
      globalRule: { enabled: true, entrances: 3, daily: true, levelId: 1, info: false },
    });
    expect(on.success && on.data.globalRule).toEqual({
      enabled: true,
      entrances: 3,
      daily: true,
      levelId: 1,
      info: false,
    });
  });

  it('mode 1 rules need a groupId', () => {
    const r = parse({ mode: 1, rules: [{ groupId: 4 }, { groupId: null }, { groupId: '' }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['rules.1.groupId', 'basics.requireField'],
      ['rules.2.groupId', 'basics.requireField'],
    ]);
  });

  it('outside mode 1 a rule without a group is dropped, not refused', () => {
    const r = parse({ mode: 2, rules: [{ groupId: null, info: true }, { groupId: 4 }] });
    expect(r.success && r.data.rules.map((x) => x.groupId)).toEqual([4]);
  });

  it('entrances: empty becomes 0 (unlimited); defaults fill the rest', () => {
    const r = parse({
      mode: 1,
      rules: [
        { groupId: '4', entrances: '' },
        { groupId: 5, entrances: null, customRule: [{ customField: 7, values: { check: 'eq', entrances: '' } }] },
        { groupId: 6, entrances: '3', daily: true },
      ],
    });
    expect(r.success).toBe(true);
    expect(r.data?.rules).toEqual([
      { groupId: 4, entrances: 0, daily: false, levelId: 0, info: false, customRule: [] },
      {
        groupId: 5,
        entrances: 0,
        daily: false,
        levelId: 0,
        info: false,
        customRule: [{ customField: 7, type: 'date', values: { system: 'today', check: 'eq', entrances: 0 } }],
      },
      { groupId: 6, entrances: 3, daily: true, levelId: 0, info: false, customRule: [] },
    ]);
  });

  it.each([
    [{}, 'mode'],
    [{ mode: 6 }, 'mode'],
    [{ mode: 'x' }, 'mode'],
    [{ mode: 1, rules: [{ groupId: 4, entrances: -1 }] }, 'rules.0.entrances'],
    [{ mode: 1, rules: [{ groupId: 4, entrances: 1.5 }] }, 'rules.0.entrances'],
    [
      { mode: 1, rules: [{ groupId: 4, customRule: [{ customField: 7, values: { check: 'gt' } }] }] },
      'rules.0.customRule.0.values.check',
    ],
    [
      { mode: 1, rules: [{ groupId: 4, customRule: [{ customField: 7, type: 'text', values: { check: 'eq' } }] }] },
      'rules.0.customRule.0.type',
    ],
    [{ mode: 1, rules: 'x' }, 'rules'],
  ])('refuses %j at %s', (data, path) => {
    const r = parse(data);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});

describe('reason messages', () => {
  const cs = new Set(catalogueKeys(resources.cs));
  const decision = (reason: ReasonCode, data: Decision['data'] = {}, effects: Effect[] = []): Decision => ({
    allowed: reason.startsWith('OK'),
    reason,
    data,
    info: false,
    effects,
  });

  it('every reason code has a message in every language', () => {
    for (const lang of LANGUAGES) {
      const keys = new Set(catalogueKeys(resources[lang]));
      for (const reason of REASON_CODES) expect(keys.has(`access.reason.${reason}`), `${lang} ${reason}`).toBe(true);
    }
  });

  it('every key reasonKey can choose exists', () => {
    const variants: Decision[] = [
      decision('OK', { allowed: 2, daily: 1 }, [{ kind: 'passage', type: 1, day: '2026-07-11' }]),
      decision('OK', { allowed: 2, daily: 0 }, [{ kind: 'passage', type: 1, day: '2026-07-11' }]),
      decision('OK', { allowed: 0 }, [{ kind: 'passage', type: 1, day: '2026-07-11' }]),
      decision('OK', {}, [{ kind: 'check' }]),
      decision('OK', { unlimited: 1 }, [{ kind: 'credit', amount: 1, balanceAfter: 0 }]),
      decision('OK', { unlimited: 0 }, [{ kind: 'credit', amount: 1, balanceAfter: 0 }]),
      decision('OK', {}, [{ kind: 'meal', slotId: 1 }]),
      decision('OK', { capacity: 5 }, [{ kind: 'parking', areaId: 1, type: 1 }]),
      decision('OK', { capacity: null }, [{ kind: 'parking', areaId: 1, type: 1 }]),
      decision('OK_EXIT', {}, [{ kind: 'parking', areaId: 1, type: 0 }]),
      decision('DAY_NOT_REGISTERED', { days: '' }),
      decision('MEAL_NOT_NOW', { next: 0 }),
      decision('BADGE_SUPERSEDED', { version: 0, current: 1, retiredDay: '2026-07-10', retiredTime: '18:05' }),
      ...REASON_CODES.map((r) => decision(r)),
    ];
    const names = [{}, { zone: 'VIP', field: 'Valid from' }];
    const keys = new Set(variants.flatMap((d) => names.map((n) => reasonKey(d, n))));
    expect(keys.size).toBeGreaterThan(REASON_CODES.length + 10);
    for (const key of keys) expect(cs.has(`access.reason.${key}`), key).toBe(true);
  });

  it.each([
    [
      'en',
      decision('DAILY_ENTRANCES_USED', { used: 2, allowed: 2, firstDay: '2026-07-11', firstTime: '08:12' }),
      'Already entered 2 of 2 times today, first at 08:12',
    ],
    [
      'cs',
      decision('ENTRANCES_USED', { used: 1, allowed: 1, firstDay: '2026-07-10', firstTime: '08:12' }),
      'Vstupy vyčerpány: 1 z 1, první 10. 7. 2026 v 08:12',
    ],
    [
      'de',
      decision('CREDIT_INSUFFICIENT', { amount: 120, balance: 100 }),
      'Guthaben reicht nicht: 100 CZK vorhanden, 120 CZK nötig',
    ],
    [
      'sk',
      decision('DAY_NOT_REGISTERED', { day: '2026-07-11', days: '2026-07-10, 2026-07-12' }),
      'Nie je registrovaný(á) na 11. 7. 2026; registrované dni: 10. 7. 2026, 12. 7. 2026',
    ],
    ['en', decision('DAY_NOT_REGISTERED', { day: '2026-07-11', days: '' }), 'Not registered for any day of the event'],
    [
      'en',
      decision('MEAL_NOT_NOW', { slotDate: '2026-07-11', slotFrom: '18:00', slotTo: '20:00', next: 1 }),
      'No meal now; the next one is on 2026-07-11 18:00–20:00',
    ],
    [
      'en',
      decision('MEAL_NOT_NOW', { slotDate: '2026-07-11', slotFrom: '11:30', slotTo: '13:30', next: 0 }),
      'No meal now; the last one was on 2026-07-11 11:30–13:30',
    ],
    ['en', decision('PARKING_FULL', { occupancy: 10, capacity: 10 }), 'The car park is full (10 of 10)'],
    [
      'en',
      decision('OK', { used: 1, allowed: 2, daily: 1 }, [{ kind: 'passage', type: 1, day: '2026-07-11' }]),
      'Entry allowed (1 of 2 today)',
    ],
    [
      'cs',
      decision('OK', { amount: 30, balance: 70, unlimited: 0 }, [{ kind: 'credit', amount: 30, balanceAfter: 70 }]),
      'Strženo 30 Kč, zůstatek 70 Kč',
    ],
    ['en', decision('OK_EXIT', {}, [{ kind: 'passage', type: 0, day: '2026-07-11' }]), 'Exit recorded'],
    ['en', decision('NOT_FOUND', { code: 'XYZ' }), 'Code XYZ was not found'],
    [
      'en',
      decision('BADGE_SUPERSEDED', { version: 0, current: 1, retiredDay: '2026-07-10', retiredTime: '18:05' }),
      'Badge version 0 was replaced by a newer one on 2026-07-10 at 18:05 (valid version 1)',
    ],
    [
      'cs',
      decision('BADGE_SUPERSEDED', { version: 0, current: 1, retiredDay: '2026-07-10', retiredTime: '18:05' }),
      'Odznak verze 0 byl nahrazen novějším dne 10. 7. 2026 v 18:05 (platná verze 1)',
    ],
    [
      'de',
      decision('BADGE_SUPERSEDED', { version: 1, current: 3 }),
      'Ausweis Version 1 wurde durch einen neueren ersetzt (gültige Version 3)',
    ],
    [
      'sk',
      decision('BADGE_SUPERSEDED', { version: 1, current: 2, retiredDay: '2026-07-10', retiredTime: '18:05' }),
      'Odznak verzie 1 bol nahradený novším dňa 10. 7. 2026 o 18:05 (platná verzia 2)',
    ],
    ['xx', decision('NO_GROUP'), 'Akreditace nemá žádnou skupinu'],
    [null, decision('NO_GROUP'), 'Akreditace nemá žádnou skupinu'],
  ] as const)('%s: %s', (lang, d, text) => {
    expect(reasonMessage(d, lang)).toBe(text);
  });

  it('names the zone and the field when the caller knows them', () => {
    expect(reasonMessage(decision('ZONE_NOT_ALLOWED', { zoneId: 9 }), 'en', { zone: 'Backstage' })).toBe(
      'No access to the zone Backstage',
    );
    expect(reasonMessage(decision('ZONE_NOT_ALLOWED', { zoneId: 9 }), 'en')).toBe('No access to this zone');
    expect(reasonMessage(decision('CUSTOM_DATE_INVALID', { fieldId: 4 }), 'de', { field: 'Gültig ab' })).toBe(
      'Das Datum im Feld Gültig ab fehlt oder ist ungültig',
    );
  });

  it('formats days per language', () => {
    expect(formatDay('2026-07-01', 'cs')).toBe('1. 7. 2026');
    expect(formatDay('2026-07-01', 'de')).toBe('1.7.2026');
    expect(formatDay('2026-07-01', 'en')).toBe('2026-07-01');
    expect(formatDay('not a day', 'cs')).toBe('not a day');
  });

  it('no message leaves a placeholder unfilled for the data the engine gives', () => {
    for (const lang of LANGUAGES) {
      const text = reasonMessage(
        decision('ENTRANCES_USED', { used: 1, allowed: 1, firstDay: '2026-07-10', firstTime: '08:12' }),
        lang,
      );
      expect(text).not.toMatch(/\{\{|\}\}/);
      expect(text).toContain('08:12');
    }
  });
});
