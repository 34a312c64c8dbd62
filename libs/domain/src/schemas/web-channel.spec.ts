import { describe, expect, it } from 'vitest';
import {
  authorizationTypeOf,
  channelPasswordMissing,
  defaultFieldValue,
  onlineLoginSchemaFor,
  wallClock,
  webChannelSchema,
  webChannelState,
} from './web-channel.js';

describe('web channel rules shared by the form and the server', () => {
  it('computes the state from active and the open range, either side open when empty (spec §4)', () => {
    const now = '2027-05-10T12:00';
    expect(webChannelState({ active: false, dateFrom: null, dateTo: null }, now)).toBe('notActive');
    expect(webChannelState({ active: true, dateFrom: null, dateTo: null }, now)).toBe('open');
    expect(webChannelState({ active: true, dateFrom: '2027-05-10T12:01', dateTo: null }, now)).toBe('notActiveYet');
    expect(webChannelState({ active: true, dateFrom: '2027-05-10T12:00', dateTo: null }, now)).toBe('open');
    expect(webChannelState({ active: true, dateFrom: null, dateTo: '2027-05-10T12:00' }, now)).toBe('open');
    expect(webChannelState({ active: true, dateFrom: null, dateTo: '2027-05-10T11:59' }, now)).toBe('closed');
  });

  it('reads the wall clock of the venue’s time zone', () => {
    const at = new Date('2027-01-01T23:30:00Z');
    expect(wallClock('Europe/Prague', at)).toBe('2027-01-02T00:30');
    expect(wallClock('UTC', at)).toBe('2027-01-01T23:30');
    expect(wallClock('America/New_York', at)).toBe('2027-01-01T18:30');
  });

  it('reuses a minute’s wall-clock text only within that minute and zone', () => {
    // Prague moves to summer time at 01:00 UTC on 28 March 2027
    expect(wallClock('Europe/Prague', new Date('2027-03-28T00:59:59Z'))).toBe('2027-03-28T01:59');
    expect(wallClock('Europe/Prague', new Date('2027-03-28T01:00:00Z'))).toBe('2027-03-28T03:00');
    expect(wallClock('Europe/Prague', new Date('2027-03-28T01:00:59Z'))).toBe('2027-03-28T03:00');
    expect(wallClock('America/New_York', new Date('2027-03-28T01:00:30Z'))).toBe('2027-03-27T21:00');
    expect(wallClock('Europe/Prague', new Date('2027-03-28T00:59:01Z'))).toBe('2027-03-28T01:59');
    // before 1980 offsets had seconds (Prague's local mean time: +0:57:44), so nothing is reused
    expect(wallClock('Europe/Prague', new Date('1880-01-01T00:02:10Z'))).toBe('1880-01-01T00:59');
    expect(wallClock('Europe/Prague', new Date('1880-01-01T00:02:20Z'))).toBe('1880-01-01T01:00');
  });

  it('derives the authorization type from the two flags and saves it back (spec §4)', () => {
    expect(authorizationTypeOf({ byPassword: true, byCode: false })).toBe(1);
    expect(authorizationTypeOf({ byPassword: false, byCode: false })).toBe(2);
    expect(authorizationTypeOf({ byPassword: false, byCode: true })).toBe(3);
    const parsed = webChannelSchema.parse({
      name: 'X',
      actionId: 1,
      withAuthorization: true,
      authorizationType: 3,
      numberUseExtCode: '4',
    });
    expect(parsed).toMatchObject({ byPassword: false, byCode: true, authorizationType: 3, numberUseExtCode: 4 });
    expect(channelPasswordMissing({ withAuthorization: true, authorizationType: 1, password: '' }, false)).toBe(true);
    expect(channelPasswordMissing({ withAuthorization: true, authorizationType: 1, password: '' }, true)).toBe(false);
    expect(channelPasswordMissing({ withAuthorization: true, authorizationType: 2, password: '' }, false)).toBe(false);
  });

  it('a code channel needs numberUseExtCode: a cleared field is refused, not saved as 0 = unlimited (spec §5)', () => {
    const code = { name: 'X', actionId: 1, withAuthorization: true, authorizationType: 3 };
    for (const cleared of [null, '', '  ', undefined]) {
      const r = webChannelSchema.safeParse({ ...code, numberUseExtCode: cleared });
      expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['numberUseExtCode', 'basics.requireField'],
      ]);
    }
    expect(webChannelSchema.parse({ ...code, numberUseExtCode: 0 }).numberUseExtCode).toBe(0);
    expect(webChannelSchema.parse({ ...code, numberUseExtCode: '0' }).numberUseExtCode).toBe(0);
    expect(webChannelSchema.safeParse({ ...code, numberUseExtCode: -1 }).error?.issues[0].message).toBe(
      'webChannelRules.positiveNumber',
    );
    // not required without authorization or for the other types: empty is stored as 0
    for (const other of [{ withAuthorization: false }, { authorizationType: 1, password: 'secret' }])
      expect(webChannelSchema.parse({ ...code, ...other, numberUseExtCode: null }).numberUseExtCode).toBe(0);
  });

  it('asks for what the channel’s authorization needs (spec §5)', () => {
    const issues = (type: 1 | 2 | 3, body: object) =>
      (onlineLoginSchemaFor(type).safeParse({ channelKey: 'k', ...body }).error?.issues ?? []).map((i) =>
        i.path.join('.'),
      );
    expect(issues(1, {})).toEqual(['password']);
    expect(issues(2, { password: 'x' })).toEqual(['login']);
    expect(issues(3, { password: 'x' })).toEqual(['code']);
    expect(issues(3, { code: 'ABC' })).toEqual([]);
  });

  it('turns a hidden field’s default text into the field’s value shape', () => {
    expect(defaultFieldValue(1, ' web ')).toBe('web');
    expect(defaultFieldValue(2, '3,5')).toBe(3.5);
    expect(defaultFieldValue(3, 'a, b;c')).toEqual(['a', 'b', 'c']);
    expect(defaultFieldValue(5, '{"street":"A 1","zip":"60200"}')).toEqual({ street: 'A 1', zip: '60200' });
    expect(defaultFieldValue(7, '1')).toBe(true);
    expect(defaultFieldValue(7, '')).toBe(false);
    expect(defaultFieldValue(4, null)).toBeNull();
  });
});
