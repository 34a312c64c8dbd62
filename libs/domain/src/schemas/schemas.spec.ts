import { describe, expect, it } from 'vitest';
import { adminUserCreateSchema, adminUserUpdateSchema, manageAdminUserCreateSchema } from './admin-user.js';
import { accreditationFilterSchema } from './accreditation.js';
import { loginSchema, renewPasswordSchema } from './session.js';
import { actionSchema, isCalendarDate, isDateTime } from './setup.js';
import { manageSubjectSchema } from './subject.js';

const keys = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('validation schemas (spec §5)', () => {
  it('login needs login and password', () => {
    expect(keys(loginSchema.safeParse({}))).toEqual({ login: 'basics.requireField', password: 'basics.requireField' });
    expect(loginSchema.safeParse({ login: 'a@b.cz', password: 'x' }).success).toBe(true);
  });

  it('admin user: password only on create, login must be an e-mail', () => {
    expect(keys(adminUserCreateSchema.safeParse({ login: 'nope', name: 'N' }))).toEqual({
      login: 'basics.emailNotValid',
      password: 'basics.requireField',
    });
    const upd = adminUserUpdateSchema.parse({ login: 'A@B.cz', name: 'N', password: '' });
    expect(upd.password).toBeUndefined();
    expect(upd.login).toBe('a@b.cz');
    expect(keys(manageAdminUserCreateSchema.safeParse({ login: 'a@b.cz', name: 'N', password: 'longenough' }))).toEqual(
      {
        subjectId: 'basics.requireField',
      },
    );
  });

  it('password renewal checks that both passwords match', () => {
    const r = renewPasswordSchema.safeParse({
      email: 'a@b.cz',
      password: 'abcdefgh',
      confirmPassword: 'abcdefgX',
      passwordLink: 'x',
    });
    expect(keys(r)).toEqual({ confirmPassword: 'basics.passwordsNotSame' });
  });

  it('manage subject needs name and path to files, keeps extensions 1 and 2 only', () => {
    expect(keys(manageSubjectSchema.safeParse({ key: 'k' }))).toMatchObject({
      name: 'basics.requireField',
      pathToFiles: 'basics.requireField',
    });
    expect(manageSubjectSchema.safeParse({ name: 'n', key: 'k', pathToFiles: 'p', extensions: [3] }).success).toBe(
      false,
    );
    expect(
      manageSubjectSchema.parse({ name: 'n', key: 'k', pathToFiles: 'p', extensions: [2, 1, 2] }).extensions,
    ).toEqual([1, 2]);
    expect(keys(manageSubjectSchema.safeParse({ name: 'n', key: 'a b', pathToFiles: '../x' }))).toEqual({
      key: 'subject.keyInvalid',
      pathToFiles: 'subject.pathInvalid',
    });
  });
});

describe('dates of the calendar', () => {
  it('takes real days only: no 31 February, no month 13', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-02-31')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('26-1-1')).toBe(false);
    expect(isDateTime('2026-12-31T23:59')).toBe(true);
    expect(isDateTime('2026-11-31T10:00')).toBe(false);
    expect(isDateTime('2026-12-01T24:00')).toBe(false);
  });

  it('says enterCorrectDate for an impossible filter day and action date', () => {
    const filter = accreditationFilterSchema.safeParse({ entrance: 2, entranceDate: '2026-02-31' });
    expect(filter.success).toBe(false);
    expect(filter.error?.issues[0]).toMatchObject({ path: ['entranceDate'], message: 'basics.enterCorrectDate' });
    const action = actionSchema.safeParse({ name: { cs: 'Akce' }, dateFrom: '2026-02-30T09:00', dateTo: '2026-03-01' });
    expect(action.success).toBe(false);
    expect(action.error?.issues.find((i) => i.path[0] === 'dateFrom')?.message).toBe('basics.enterCorrectDate');
  });
});

describe('accreditation filter', () => {
  it('names a user field by its id', () => {
    expect(accreditationFilterSchema.parse({ customField: { '12': 'Acme', '13': 1 } }).customField).toEqual({
      '12': 'Acme',
      '13': 1,
    });
    const bad = accreditationFilterSchema.safeParse({ customField: { company: 'Acme' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path[0]).toBe('customField');
  });
});
