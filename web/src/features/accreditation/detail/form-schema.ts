import { accreditationSchema, PHOTO_MAX_BYTES } from '@accredo/domain';
import { z } from 'zod';
import { checkFieldValue, type FieldDef } from './form-values';

// The forms' zod schemas, apart from form-values.ts so that a page showing a form does not load zod
// before its first validation (issue 15: the public form's first load).

/**
 * The user-field values of a form kept by field id (so an error lands on `customField.<id>`), each
 * checked against its field: the accreditation form and the online registration form share it.
 */
export function customFieldRecordSchema(fields: FieldDef[]) {
  return z
    .record(z.string(), z.unknown())
    .default({})
    .superRefine((values, ctx) => {
      for (const field of fields) {
        const key = checkFieldValue(field, values[String(field.id)]);
        if (key) ctx.addIssue({ code: 'custom', path: [String(field.id)], message: key });
      }
    });
}

/** `accreditationSchema` with the user fields kept by id and checked against the action's fields on the client. */
export function accreditationFormSchema(fields: FieldDef[]) {
  return accreditationSchema.extend({
    customField: customFieldRecordSchema(fields),
    imageData: z
      .string()
      .nullish()
      .refine((v) => !v || dataUrlBytes(v) <= PHOTO_MAX_BYTES, { message: 'photo.chooseToolTipOnline' }),
  });
}
export type AccreditationFormOutput = z.output<ReturnType<typeof accreditationFormSchema>>;

function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}
