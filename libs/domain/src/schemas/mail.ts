import { z } from 'zod';
import { accreditationFilterSchema } from './accreditation.js';
import { booleanSchema, id, languageSchema, requiredEmail } from './common.js';

/**
 * Mail from a template (spec §5 mass mail, §7 email/send): to the chosen people, or with `all` to
 * every person of the filter; a mail template must be chosen.
 */
export const sendMailSchema = z
  .object({
    actionId: id(),
    userIds: z.array(z.coerce.number().int().positive()).max(100_000).default([]),
    all: booleanSchema(false),
    filterData: accreditationFilterSchema.prefault({}),
    mailTemplate: z.coerce
      .number({ error: 'mail.chooseTemplate' })
      .int({ error: 'mail.chooseTemplate' })
      .positive({ error: 'mail.chooseTemplate' }),
  })
  .refine((v) => v.all || v.userIds.length > 0, { error: 'accreditation.chooseUsers', path: ['userIds'] });
export type SendMailInput = z.input<typeof sendMailSchema>;

/** The test of a mail template (spec §2 mail template: send test): the address to send it to. */
export const testMailSchema = z.object({
  email: requiredEmail(),
  /** the template's text to test (issue 15; its Czech text when that language has none): the admin's language when left out */
  language: languageSchema.optional(),
});
export type TestMailInput = z.input<typeof testMailSchema>;

/** The answer of email/send: how many mails were queued, and who got none and why (spec §8). */
export interface SendMailResult {
  queued: number;
  error: { user: number; error: string }[];
}

/** Why one person got no mail: codes the web app translates (`mail.userErrors.<code>`). */
export const MAIL_USER_ERRORS = ['NO_EMAIL', 'NOT_FOUND', 'RENDER_FAILED'] as const;
export type MailUserError = (typeof MAIL_USER_ERRORS)[number];

/** The counts of the dashboard (spec §3 Dashboard data: basicData). */
export interface DashboardBasicData {
  actionCount: number;
  webChannelCount: number;
  userCount: number;
  emailSentCount: number;
  emailInQueue: number;
  emailErrorCount: number;
}
