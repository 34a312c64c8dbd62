import { describe, expect, it } from 'vitest';
import { subjectLanguages } from '../constants.js';
import {
  ACCREDITATION_LANGUAGE_INVALID,
  accreditationSchema,
  importRowSchema,
  subjectLanguageError,
} from './accreditation.js';
import { testMailSchema } from './mail.js';
import { mailTemplateSchema } from './setup.js';
import { onlineRegistrationSchema } from './web-channel.js';

/** Mails in the person's language (issue 15): the one language rule, and a mail template's texts per language. */
describe('a person’s mail language', () => {
  const person = { firstname: 'Jana', lastname: 'Nová', email: 'jana@example.com' };
  const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    r.error?.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) ?? [];

  it('is one of cs, sk, en, de for the API, the online form and the import alike', () => {
    for (const schema of [accreditationSchema, onlineRegistrationSchema]) {
      const base = { ...person, actionId: 1 };
      expect(schema.parse({ ...base, language: 'de' }).language).toBe('de');
      expect(schema.parse({ ...base, language: ' EN ' }).language).toBe('en');
      expect(schema.parse(base).language).toBeUndefined();
      expect(schema.parse({ ...base, language: null }).language).toBeUndefined();
      expect(issues(schema.safeParse({ ...base, language: 'xx' }))).toEqual([
        { path: 'language', message: ACCREDITATION_LANGUAGE_INVALID },
      ]);
    }
    expect(importRowSchema.parse({ ...person, bc: '', language: '' }).language).toBeUndefined();
    expect(issues(importRowSchema.safeParse({ ...person, bc: '', language: 'Deutsch' }))).toEqual([
      { path: 'language', message: ACCREDITATION_LANGUAGE_INVALID },
    ]);
  });

  it('must be one the subject offers: all four with multi-language, Czech alone without', () => {
    expect(subjectLanguages(true)).toEqual(['cs', 'sk', 'en', 'de']);
    expect(subjectLanguages(false)).toEqual(['cs']);
    expect(subjectLanguageError('de', true)).toBeNull();
    expect(subjectLanguageError('de', false)).toBe(ACCREDITATION_LANGUAGE_INVALID);
    expect(subjectLanguageError('cs', false)).toBeNull();
    expect(subjectLanguageError(undefined, false)).toBeNull();
  });
});

describe('a mail template’s texts per language', () => {
  const template = { name: 'Confirmation', subjectFrom: 'Registrace', html: '<p>Dobrý den</p>' };

  it('keeps the languages with both texts, drops empty ones, and has none when left out', () => {
    const parsed = mailTemplateSchema.parse({
      ...template,
      translations: {
        de: { subjectFrom: ' Anmeldung ', html: '<p>Guten Tag</p>' },
        en: { subjectFrom: '', html: '' },
      },
    });
    expect(parsed.translations).toEqual({ de: { subjectFrom: 'Anmeldung', html: '<p>Guten Tag</p>' } });
    expect(mailTemplateSchema.parse(template).translations).toEqual({});
    expect(mailTemplateSchema.parse({ ...template, translations: null }).translations).toEqual({});
  });

  it('asks for the other text of a language that has one, and bounds both like the Czech ones', () => {
    const half = mailTemplateSchema.safeParse({ ...template, translations: { en: { subjectFrom: 'Hello' } } });
    expect(half.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['translations.en.html', 'basics.requireField'],
    ]);
    const long = mailTemplateSchema.safeParse({
      ...template,
      translations: { sk: { subjectFrom: 'x'.repeat(501), html: 'ž'.repeat(40_000) } },
    });
    expect(long.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['translations.sk.subjectFrom', 'basics.tooLong'],
      ['translations.sk.html', 'basics.tooLong'],
    ]);
    // Czech stays the required text
    expect(mailTemplateSchema.safeParse({ ...template, subjectFrom: '' }).success).toBe(false);
  });

  it('the test mail takes an optional language', () => {
    expect(testMailSchema.parse({ email: 'a@example.com', language: 'de' }).language).toBe('de');
    expect(testMailSchema.safeParse({ email: 'a@example.com', language: 'xx' }).success).toBe(false);
  });
});
