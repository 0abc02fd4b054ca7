import { describe, expect, it } from 'vitest';
import type { CaseHistoryEntry as HistoryEntry, Role } from '@alignerflow/domain';
import { historyLines } from '../case-detail/historyText';

const url = '/api/files/00000000-0000-0000-0000-000000000009/plan.pdf';
const at = (n: number) => `2025-03-0${n}T10:00:00.000Z`;
const entry = (
  n: number,
  type: string,
  data: Record<string, unknown>,
  username = 'admin',
  role: Role = 'Manager',
): HistoryEntry => ({
  position: String(n),
  version: n,
  type,
  data,
  actor: { username, role },
  at: at(n),
});
const created = (origin?: Record<string, unknown>) =>
  entry(
    1,
    'CaseCreated',
    {
      id: 'CA-2025-777',
      patientName: 'Ada',
      doctorName: 'Dr. Lee',
      clinicName: 'Smiles',
      priority: 'Normal',
      deliveryDate: null,
      treatmentPlanNotes: '',
      files: [],
      price: null,
      upperSheets: null,
      lowerSheets: null,
      assignedDoctorUsername: 'dr.lee',
      fee: null,
      ...(origin ? { origin } : {}),
    },
    'dr.lee',
    'Doctor',
  );

describe('the History tab words the case work events', () => {
  it('files added and removed, with the name and the reason', () => {
    const lines = historyLines([
      created(),
      entry(
        2,
        'FilesAdded',
        { files: [{ name: 'plan.pdf', type: 'Document', url, size: '0.01 MB' }] },
        'dr.lee',
        'Doctor',
      ),
      entry(3, 'FileRemoved', { url, reason: 'Wrong patient' }),
    ]);
    expect(lines[1].sentence).toBe('dr.lee added a file');
    expect(lines[1].details).toEqual([{ label: 'Document', value: 'plan.pdf' }]);
    expect(lines[2].sentence).toBe('admin removed the file plan.pdf');
    expect(lines[2].details).toEqual([{ label: 'Reason', value: 'Wrong patient' }]);
  });

  it('a follow-up on the original, and the new case naming its original', () => {
    const original = historyLines([
      created(),
      entry(2, 'FollowUpOrdered', {
        caseId: 'CA-2025-900',
        kind: 'remake',
        reasonCode: 'poor_fit',
        reason: 'Loose',
      }),
    ]);
    expect(original[1].sentence).toBe('admin ordered a remake: CA-2025-900');
    expect(original[1].details).toEqual([
      { label: 'Reason code', value: 'Poor fit' },
      { label: 'Reason', value: 'Loose' },
    ]);
    const remake = historyLines([
      created({ caseId: 'CA-2025-100', kind: 'refinement', reasonCode: null, reason: '' }),
    ]);
    expect(remake[0].sentence).toBe('dr.lee ordered this case as a refinement of CA-2025-100');
  });
});
