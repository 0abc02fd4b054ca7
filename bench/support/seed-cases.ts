import { randomUUID } from 'node:crypto';
import type { TestApp } from '../../test/support/test-app';

const FIRST_NAMES = ['Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Mia', 'Lucas', 'Sofia', 'Ethan', 'Zoe'];
const LAST_NAMES = ['Thompson', 'Garcia', 'Patel', 'Nguyen', 'Okafor', 'Rossi', 'Kowalski', 'Silva'];
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];

/**
 * Brings the lab to `total` real cases quickly: copies of a demo case with their own ids and
 * patients go in through the bulk import (POST /restore), which appends CaseImported events and
 * projects them, so every case is a real projected case. Creating them one by one through the API
 * would take minutes at this size.
 */
export async function seedCases(
  lab: TestApp,
  total: number,
  options: { statuses?: readonly string[] } = {},
): Promise<number> {
  const admin = await lab.login('admin');
  const backup = (await admin.get('/backup')).body as { users: unknown[]; cases: Record<string, unknown>[] };
  const template = backup.cases[0];
  const cases = [...backup.cases];
  for (let n = 0; cases.length < total; n++) {
    // Varied like real data, so that sizes and gzip ratios are not flattered by copies.
    cases.push({
      ...template,
      id: `CA-2020-${10_000 + n}`,
      // Spread over these statuses, one after the other, when given (else the template's).
      ...(options.statuses ? { status: options.statuses[n % options.statuses.length] } : {}),
      patientName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${n}`,
      doctorName: `Dr. ${pick(LAST_NAMES)}`,
      clinicName: `${pick(LAST_NAMES)} Dental ${n % 97}`,
      treatmentPlanNotes: `Plan ${randomUUID()}: ${pick(LAST_NAMES)} protocol, ${n % 40} stages.`,
      createdDate: new Date(
        Date.UTC(2020, 0, 1) + n * 60_000 + Math.floor(Math.random() * 60_000),
      ).toISOString(),
    });
  }
  const restored = await admin.post('/restore', { users: backup.users, cases });
  if (restored.status !== 200)
    throw new Error(`restore: ${restored.status} ${JSON.stringify(restored.body)}`);
  return restored.body.cases;
}
