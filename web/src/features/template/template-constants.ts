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
