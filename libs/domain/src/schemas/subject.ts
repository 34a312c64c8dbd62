import { z } from 'zod';
import { EXTENSION_TYPES } from '../constants.js';
import { booleanSchema, REQUIRED, requiredString } from './common.js';

/** Subject keys and file paths appear in URLs and on disk: letters, digits, dash, underscore. */
const SLUG = /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/;

export const isValidTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const timeZone = z
  .string()
  .trim()
  .max(64, { error: 'subject.timeZoneInvalid' })
  .default('Europe/Prague')
  .refine(isValidTimeZone, { error: 'subject.timeZoneInvalid' });

/** The subject settings an admin edits (spec §5 Subject: name required). */
export const subjectUpdateSchema = z.object({
  name: requiredString(),
  multiLanguage: booleanSchema(false),
  timeZone,
});
export type SubjectUpdateInput = z.input<typeof subjectUpdateSchema>;

/** The manage module's subject form (spec §5 Manage subject: name and path to files required). */
export const manageSubjectSchema = z.object({
  name: requiredString(),
  key: requiredString(64).regex(SLUG, { error: 'subject.keyInvalid' }),
  pathToFiles: requiredString(64).regex(SLUG, { error: 'subject.pathInvalid' }),
  multiLanguage: booleanSchema(false),
  timeZone,
  extensions: z
    .array(z.union(EXTENSION_TYPES.map((t) => z.literal(t))), { error: 'basics.invalidValue' })
    .default([])
    .transform((list) => [...new Set(list)].sort()),
});
export type ManageSubjectInput = z.input<typeof manageSubjectSchema>;
export { REQUIRED };
