import { z } from 'zod';
import {
  id,
  languageSchema,
  password,
  REQUIRED,
  requiredEmail,
  requiredString,
  withMatchingPasswords,
} from './common.js';

/** Admin and manage login (spec §5: login and password required). */
export const loginSchema = z.object({
  login: requiredString(),
  password: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(200, { error: 'basics.tooLong' }),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({
  login: requiredEmail(),
  language: languageSchema.optional(),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const passwordLinkSchema = z.object({ passwordLink: requiredString(200) });
export const confirmLinkSchema = z.object({ confirmLink: requiredString(200) });

export const renewPasswordSchema = withMatchingPasswords(
  z.object({
    email: requiredEmail(),
    password: password(),
    confirmPassword: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }),
    passwordLink: requiredString(200),
  }),
);
export type RenewPasswordInput = z.infer<typeof renewPasswordSchema>;

export const verifyAccountSchema = withMatchingPasswords(
  z.object({
    email: requiredEmail(),
    password: password(),
    confirmPassword: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }),
    confirmLink: requiredString(200),
  }),
);
export type VerifyAccountInput = z.infer<typeof verifyAccountSchema>;

export const switchSubjectSchema = z.object({ subjectId: id() });
export type SwitchSubjectInput = z.infer<typeof switchSubjectSchema>;
