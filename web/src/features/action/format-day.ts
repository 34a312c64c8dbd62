// Apart from date-tab.tsx so that the public pages that show days do not load the action form (issue 15).

/** 'YYYY-MM-DD' as the day's label, e.g. '1. 5. 2026' in Czech. */
export function formatDay(id: string, language: string): string {
  const time = Date.parse(`${id}T00:00:00Z`);
  if (Number.isNaN(time)) return id;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(time);
}
