import { describe, expect, it } from 'vitest';
import { adminUserCreateSchema, adminUserUpdateSchema, manageAdminUserCreateSchema } from './admin-user.js';
import { loginSchema, renewPasswordSchema } from './session.js';
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
