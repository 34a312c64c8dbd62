import { type OnlineChannelData, onlineRegistrationSchema } from '@accredo/domain';
import type { z } from 'zod';
import { customFieldRecordSchema } from '../accreditation/detail/form-schema';
import type { FieldDef } from '../accreditation/detail/form-values';

// Loaded at the forms' first validation (online-registration.tsx, online-login.tsx), not with the page
// (issue 15).
export { onlineLoginSchemaFor } from '@accredo/domain';

/**
 * The shared `onlineRegistrationSchema` with what only the channel knows (spec §5 Online
 * registration): each user field checked by its type and mandatory flag, a group when groups are
 * offered, a photo when the action requires one, and every required checking attribute ticked.
 */
export function onlineFormSchema(data: OnlineChannelData, fields: FieldDef[]) {
  return onlineRegistrationSchema.extend({ customField: customFieldRecordSchema(fields) }).superRefine((v, ctx) => {
    if (data.viewGroups && v.groups.length === 0)
      ctx.addIssue({ code: 'custom', path: ['groups'], message: 'webChannelRules.groupRequired' });
    if (data.withPhoto && data.requirePhoto && !v.image)
      ctx.addIssue({ code: 'custom', path: ['image'], message: 'webChannelRules.photoRequired' });
    for (const attribute of data.checkingAttributes)
      if (attribute.required && !v.checkingAttributes[attribute.id])
        ctx.addIssue({
          code: 'custom',
          path: ['checkingAttributes', attribute.id],
          message: 'webChannelRules.checkingAttributeRequired',
        });
  });
}
export type OnlineFormOutput = z.output<ReturnType<typeof onlineFormSchema>>;
