import { type AccreditationFilterData, EMPTY_FILTER } from '../../../api/accreditation-list';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../../api/storage';

interface StoredFilter {
  actionId: number;
  filter: AccreditationFilterData;
}

const asId = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

/** A stored filter, cleaned of anything a hand-edited or old entry may carry. */
function normalize(value: unknown): AccreditationFilterData | null {
  if (!value || typeof value !== 'object') return null;
  const raw = value as Partial<Record<keyof AccreditationFilterData, unknown>>;
  const customField: Record<string, string | number> = {};
  if (raw.customField && typeof raw.customField === 'object') {
    for (const [key, v] of Object.entries(raw.customField as Record<string, unknown>)) {
      if (typeof v === 'string' || typeof v === 'number') customField[key] = v;
    }
  }
  return {
    ...EMPTY_FILTER,
    text: typeof raw.text === 'string' && raw.text.trim() ? raw.text : null,
    groupId: asId(raw.groupId),
    zoneId: asId(raw.zoneId),
    printed: raw.printed === 1 || raw.printed === -1 ? raw.printed : null,
    customField,
  };
}

/** The remembered filter of the accreditation list (spec §3 client-side state: filters), per action. */
export function readStoredFilter(actionId: number): AccreditationFilterData | null {
  const text = readStorage(STORAGE_KEYS.userFilter);
  if (!text) return null;
  try {
    const stored = JSON.parse(text) as Partial<StoredFilter>;
    return stored.actionId === actionId ? normalize(stored.filter) : null;
  } catch {
    return null;
  }
}

export function writeStoredFilter(actionId: number, filter: AccreditationFilterData | null): void {
  writeStorage(STORAGE_KEYS.userFilter, filter ? JSON.stringify({ actionId, filter } satisfies StoredFilter) : null);
}
