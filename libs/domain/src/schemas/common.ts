import { z } from 'zod';
import { EMAIL_PATTERN, LANGUAGES, PASSWORD_MIN_LENGTH } from '../constants.js';

/**
 * Building blocks with the message keys of spec §5. A message is always a key of the i18n
 * catalogue, so browser and server show the same text in the user's language.
 */
export const REQUIRED = 'basics.requireField';

export const requiredString = (max = 255) =>
  z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(max, { error: 'basics.tooLong' });

export const optionalString = (max = 255) =>
  z
    .string({ error: 'basics.invalidValue' })
    .trim()
    .max(max, { error: 'basics.tooLong' })
    .nullish()
    .transform((v) => v ?? '');

export const requiredEmail = () =>
  z
    .string({ error: REQUIRED })
    .trim()
    .min(1, { error: REQUIRED })
    .max(255, { error: 'basics.tooLong' })
    .regex(EMAIL_PATTERN, { error: 'basics.emailNotValid' })
    .transform((v) => v.toLowerCase());

export const password = () =>
  z
    .string({ error: REQUIRED })
    .min(1, { error: REQUIRED })
    .min(PASSWORD_MIN_LENGTH, { error: 'basics.passwordTooShort' })
    .max(200, { error: 'basics.tooLong' });

export const languageSchema = z.enum(LANGUAGES, { error: 'basics.invalidValue' });

export const id = () =>
  z.coerce.number({ error: 'basics.invalidValue' }).int({ error: 'basics.invalidValue' }).positive({
    error: 'basics.invalidValue',
  });

export const optionalId = () =>
  z
    .union([id(), z.literal(null), z.literal('').transform(() => null)])
    .optional()
    .transform((v) => v ?? null);

export const booleanSchema = (def: boolean) => z.boolean({ error: 'basics.invalidValue' }).default(def);

/** Two passwords that must match (spec §5: basics.passwordsNotSame on confirmPassword). */
export function withMatchingPasswords<
  T extends z.ZodType<{ password?: string | null; confirmPassword?: string | null }>,
>(schema: T) {
  return schema.superRefine((value, ctx) => {
    if ((value.password ?? '') !== (value.confirmPassword ?? '')) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'basics.passwordsNotSame' });
    }
  });
}
