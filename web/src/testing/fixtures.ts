import type { AccreditationRow } from '../api/accreditation-list';

/** An accreditation as `user/all` lists it (and, without history, as the detail calls answer it), for component tests. */
export const accreditationRow = (id: number, patch: Partial<AccreditationRow> = {}): AccreditationRow => ({
  id,
  customId: id,
  actionId: 7,
  firstname: `First${id}`,
  lastname: `Last${id}`,
  email: `p${id}@example.com`,
  bc: `bc${id}`,
  groups: [],
  groupIds: [],
  zones: [],
  zoneIds: [],
  days: [],
  customField: [],
  image: null,
  printCount: 0,
  credit: null,
  isUnlimited: false,
  dateCreate: '2026-01-01T10:00:00.000Z',
  source: 'admin',
  language: 'cs',
  ...patch,
});
