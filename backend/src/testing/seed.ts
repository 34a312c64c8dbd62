import type { DataSource } from 'typeorm';

/**
 * Many accreditations of one action written straight into the tables (a test of what happens past
 * the list's selective cap needs thousands; through the API that would take minutes). Each person
 * is `P{n} Q{n}`, `p{n}@seed.test`, customId n; `value(n)` gives user-field values to index.
 * Returns the new ids in customId order.
 */
export async function seedAccreditations(
  ds: DataSource,
  o: { subjectId: number; actionId: number; count: number; values?: (n: number) => Record<number, string> },
): Promise<number[]> {
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  for (let k = 0; k < o.count; k += 300) {
    const rows = Array.from({ length: Math.min(300, o.count - k) }, (_, j) => {
      const n = k + j + 1;
      const bc = `S${o.actionId}X${String(n).padStart(7, '0')}`;
      return [o.subjectId, o.actionId, n, `P${n}`, `Q${n}`, `p${n}@seed.test`, bc, `p${n} q${n} ${bc}`.toLowerCase()];
    });
    await ds.query(
      `INSERT INTO accreditation (subjectId, actionId, customId, firstname, lastname, email, bc, search, days, fieldValues, printCount, isUnlimited, source, createdAt, updatedAt) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, '[]', '{}', 0, 0, 'admin', ?, ?)").join(', ')}`,
      rows.flatMap((r) => [...r, now, now]),
    );
  }
  const rows: { id: number; customId: number }[] = await ds.query(
    'SELECT id, customId FROM accreditation WHERE actionId = ? ORDER BY customId',
    [o.actionId],
  );
  const values = rows.flatMap((r) =>
    Object.entries(o.values?.(Number(r.customId)) ?? {}).map(([fieldId, value]) => [
      Number(r.id),
      Number(fieldId),
      o.actionId,
      value,
    ]),
  );
  for (let k = 0; k < values.length; k += 300) {
    const chunk = values.slice(k, k + 300);
    await ds.query(
      `INSERT INTO accreditation_value (accreditationId, fieldId, actionId, value) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
      chunk.flat(),
    );
  }
  return rows.map((r) => Number(r.id));
}
