import { isActiveStatus, type CaseSummary, type CaseStatus, type StageTime } from '@alignerflow/domain';

/** Spec section 2: case id, patient name or doctor name, case-insensitive substring. */
export function matchesSearch(
  item: Pick<CaseSummary, 'id' | 'patientName' | 'doctorName'>,
  query: string,
): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [item.id, item.patientName, item.doctorName].some((field) =>
    (field ?? '').toLowerCase().includes(needle),
  );
}

/** Time in stage from the cases themselves, for servers whose dashboard does not carry it. */
export function timeInStageOf(
  cases: CaseSummary[],
  now: Date = new Date(),
): Partial<Record<CaseStatus, StageTime>> {
  const result: Partial<Record<CaseStatus, StageTime>> = {};
  for (const item of cases) {
    if (!isActiveStatus(item.status) || !item.statusEnteredAt) continue;
    const hours = Math.max(0, (now.getTime() - new Date(item.statusEnteredAt).getTime()) / 3_600_000);
    const entry = result[item.status] ?? { count: 0, averageHours: 0, maxHours: 0 };
    entry.averageHours = (entry.averageHours * entry.count + hours) / (entry.count + 1);
    entry.count += 1;
    entry.maxHours = Math.max(entry.maxHours, hours);
    result[item.status] = entry;
  }
  return result;
}
