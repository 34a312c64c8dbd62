import { PAGE_SIZES_PRINT } from '@accredo/domain';
import type { TFunction } from 'i18next';

export type PageSize = (typeof PAGE_SIZES_PRINT)[number];

/** "A5 landscape" for A5-L, "A5 portrait" for A5. */
export function pageSizeLabel(t: TFunction, size: string): string {
  const [format, landscape] = size.split('-');
  return t(landscape ? 'template.landscape' : 'template.portrait', { size: format });
}

export const pageSizeData = (t: TFunction) =>
  PAGE_SIZES_PRINT.map((size) => ({ value: size, label: pageSizeLabel(t, size) }));

/**
 * The placeholders of spec §3 Accreditation template, each with the catalogue key that explains it;
 * the help panel lists them (the rendering and checking come with printing).
 */
export const TEMPLATE_PLACEHOLDERS: { code: string; key: string }[] = [
  { code: '{{id}}', key: 'template.ph.id' },
  { code: '{{custom_id}}', key: 'template.ph.customId' },
  { code: '{{bc}}', key: 'template.ph.bc' },
  { code: '{{firstname}}', key: 'template.ph.firstname' },
  { code: '{{lastname}}', key: 'template.ph.lastname' },
  { code: '{{email}}', key: 'template.ph.email' },
  { code: '{{group}}', key: 'template.ph.group' },
  { code: '{{zones.[0]}}', key: 'template.ph.zones' },
  { code: '{{custom_field.[12]}}', key: 'template.ph.customField' },
  { code: '{{user_image}}', key: 'template.ph.userImage' },
  { code: '{{html_data}}', key: 'template.ph.htmlData' },
  { code: '{{day}}', key: 'template.ph.day' },
  { code: '{{d}}', key: 'template.ph.d' },
  { code: '{{actionName}}', key: 'template.ph.actionName' },
  { code: '{{smartLink}}', key: 'template.ph.smartLink' },
];

/** The loop over the days (each with id, name, onAccreditation). */
export const DAYS_LOOP_EXAMPLE = '{{#each days}}\n  {{this.onAccreditation}}\n{{/each}}';
export const NOCHECK_EXAMPLE = '{{firstname_nocheck}}';
