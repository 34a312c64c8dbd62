import { z } from 'zod';
import { normalizeRights } from '../rights.js';
import {
  booleanSchema,
  id,
  languageSchema,
  optionalId,
  password,
  REQUIRED,
  requiredEmail,
  requiredString,
  withMatchingPasswords,
} from './common.js';

const rightsSchema = z
  .record(z.string(), z.record(z.string(), z.object({ is: z.boolean() })), { error: 'basics.invalidValue' })
  .optional()
  .transform((r) => (r === undefined ? undefined : normalizeRights(r)));

const adminUserBase = {
  login: requiredEmail(),
  name: requiredString(),
  active: booleanSchema(true),
  actionId: optionalId(),
  rights: rightsSchema,
};

/** Admin user form (spec §5): login required; password required on create only. */
export const adminUserCreateSchema = z.object({ ...adminUserBase, password: password() });
export type AdminUserCreateInput = z.input<typeof adminUserCreateSchema>;

export const adminUserUpdateSchema = z.object({
  ...adminUserBase,
  password: z
    .union([password(), z.literal('')])
    .nullish()
    .transform((v) => v || undefined),
});
export type AdminUserUpdateInput = z.input<typeof adminUserUpdateSchema>;

/** The manage side adds subjectId (required) and the two role switches. */
const manageExtra = {
  subjectId: z.coerce.number({ error: REQUIRED }).int({ error: REQUIRED }).positive({ error: REQUIRED }),
  superuser: booleanSchema(false),
  manageuser: booleanSchema(false),
};
export const manageAdminUserCreateSchema = adminUserCreateSchema.extend(manageExtra);
export const manageAdminUserUpdateSchema = adminUserUpdateSchema.extend(manageExtra);
export type ManageAdminUserCreateInput = z.input<typeof manageAdminUserCreateSchema>;

/** The profile of the signed-in admin (spec §5: name required on profile). */
export const profileSchema = withMatchingPasswords(
  z.object({
    name: requiredString(),
    language: languageSchema.optional(),
    password: z
      .union([password(), z.literal('')])
      .nullish()
      .transform((v) => v || undefined),
    confirmPassword: z.string().nullish(),
  }),
);
export type ProfileInput = z.input<typeof profileSchema>;

export const idParamSchema = z.object({ id: id() });
