import { catalogueKeys, LANGUAGES, resources } from '@accredo/i18n';
import { describe, expect, it } from 'vitest';
import {
  accreditationCodeSchema,
  accreditationSchema,
  IMPORT_ROW_CODES,
  importRowSchema,
  isAccreditationCode,
} from './accreditation.js';
import { mailTemplateSchema } from './setup.js';
import { subjectUpdateSchema } from './subject.js';
import { onlineRegistrationSchema } from './web-channel.js';

const keys = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const person = { firstname: 'Ann', lastname: 'Lee', email: 'Ann@Example.com' };
const long = 'x'.repeat(256);
const longEmail = `${'a'.repeat(244)}@example.com`; // 256 characters

describe('one schema for the person of an accreditation (issue 10 item 5)', () => {
  it('a code is 1–32 letters and digits, read case-insensitively and kept upper-cased', () => {
    // what the product makes (16 of a 32-letter alphabet) and what the import and tests have used
    for (const good of ['A', 'MYCODE0001', 'abcdefghjkmnpqrstuvwxyz234567ABC', 'S12X0000001'])
      expect(accreditationCodeSchema().parse(good)).toBe(good.toUpperCase());
    expect(accreditationCodeSchema().parse('  ab12  ')).toBe('AB12');
    for (const bad of ['A B', 'AB<1', 'AB/1', 'AB😀', 'ÁBC', 'AB-1', 'AB.1', 'x'.repeat(33), '../x']) {
      expect(isAccreditationCode(bad)).toBe(false);
      expect(keys(accreditationCodeSchema().safeParse(bad))).toEqual({ '': 'accreditation.codeInvalid' });
    }
    expect(keys(accreditationCodeSchema().safeParse(''))).toEqual({ '': 'basics.requireField' });
    expect(isAccreditationCode('x'.repeat(32))).toBe(true);
  });

  it('an import row: the same keys as POST user for the person; an empty code is none', () => {
    expect(importRowSchema.parse({ ...person, bc: '' })).toEqual({ ...person, email: 'ann@example.com', bc: null });
    expect(importRowSchema.parse(person).bc).toBeNull();
    expect(importRowSchema.parse({ ...person, bc: 'abc123' }).bc).toBe('ABC123');

    const bad = { firstname: long, lastname: long, email: longEmail };
    const fromRow = keys(importRowSchema.safeParse({ ...bad, bc: 'a b' }));
    expect(fromRow).toEqual({
      firstname: 'basics.tooLong',
      lastname: 'basics.tooLong',
      email: 'basics.tooLong',
      bc: 'accreditation.codeInvalid',
    });
    const fromApi = keys(accreditationSchema.safeParse({ actionId: 1, ...bad }));
    const fromOnline = keys(onlineRegistrationSchema.safeParse(bad));
    const { bc: _, ...personKeys } = fromRow;
    expect(fromApi).toEqual(personKeys);
    expect(fromOnline).toEqual(personKeys);
    expect(keys(importRowSchema.safeParse({ firstname: ' ', lastname: '', email: 'no' }))).toEqual({
      firstname: 'basics.requireField',
      lastname: 'basics.requireField',
      email: 'basics.emailNotValid',
    });
  });

  it('every import row code has its message in every language (the web shows them)', () => {
    for (const language of LANGUAGES) {
      const known = new Set(catalogueKeys(resources[language]));
      expect(IMPORT_ROW_CODES.filter((c) => !known.has(`accreditationImport.codes.${c}`))).toEqual([]);
    }
  });

  it('255 characters fit (the columns are varchar 255)', () => {
    const max = { firstname: 'x'.repeat(255), lastname: 'y'.repeat(255), email: `${'a'.repeat(243)}@example.com` };
    expect(importRowSchema.safeParse(max).success).toBe(true);
    expect(accreditationSchema.safeParse({ actionId: 1, ...max }).success).toBe(true);
  });
});

describe('schemas bound what their varchar columns hold (issue 10 item 5, the same mistake elsewhere)', () => {
  it('mail copies fit the queue’s cc column (1,000 characters), each an address of at most 255', () => {
    const template = { name: 'T', subjectFrom: 'S' };
    const address = (n: number) => `${String(n).padStart(40, 'a')}@example.com`; // 52 characters
    const many = Array.from({ length: 19 }, (_, i) => address(i)); // 19 × 52 + 18 × 2 = 1,024
    expect(keys(mailTemplateSchema.safeParse({ ...template, mailCopy: many }))).toEqual({
      mailCopy: 'basics.tooLong',
    });
    expect(mailTemplateSchema.safeParse({ ...template, mailCopy: many.slice(0, 18) }).success).toBe(true);
    expect(keys(mailTemplateSchema.safeParse({ ...template, mailCopy: [longEmail] }))).toEqual({
      'mailCopy.0': 'basics.tooLong',
    });
  });

  it('a time zone fits its column (64)', () => {
    expect(keys(subjectUpdateSchema.safeParse({ name: 'S', timeZone: 'x'.repeat(65) }))).toEqual({
      timeZone: 'subject.timeZoneInvalid',
    });
    expect(subjectUpdateSchema.parse({ name: 'S', timeZone: 'America/Argentina/ComodRivadavia' }).timeZone).toBe(
      'America/Argentina/ComodRivadavia',
    );
  });
});
