import { describe, expect, it } from 'vitest';
import type { CaseOrigin } from '@alignerflow/domain';
import { doctor, E, historyOf, type Given } from '../../test/fixtures';
import { historyLines } from './historyText';

const url = '/api/files/00000000-0000-0000-0000-000000000009/plan.pdf';
/** Ada's case, created by her doctor; a remake or refinement names its original. */
const created = (origin?: CaseOrigin): Given => [
  E.created({
    id: 'CA-2025-777',
    patientName: 'Ada',
    clinicName: 'Smiles',
    price: null,
    upperSheets: null,
    lowerSheets: null,
    fee: null,
    ...(origin ? { origin } : {}),
  }),
  doctor,
];

describe('the History tab words the case work events', () => {
  it('files added and removed, with the name and the reason', () => {
    const lines = historyLines(
      historyOf(
        created(),
        [E.filesAdded({ name: 'plan.pdf', type: 'Document', url, size: '0.01 MB' }), doctor],
        E.fileRemoved(url, 'Wrong patient'),
      ),
    );
    expect(lines[1].sentence).toBe('dr.lee added a file');
    expect(lines[1].details).toEqual([{ label: 'Document', value: 'plan.pdf' }]);
    expect(lines[2].sentence).toBe('admin removed the file plan.pdf');
    expect(lines[2].details).toEqual([{ label: 'Reason', value: 'Wrong patient' }]);
  });

  it('a follow-up on the original, and the new case naming its original', () => {
    const original = historyLines(
      historyOf(created(), E.followUp('CA-2025-900', 'remake', 'poor_fit', 'Loose')),
    );
    expect(original[1].sentence).toBe('admin ordered a remake: CA-2025-900');
    expect(original[1].details).toEqual([
      { label: 'Reason code', value: 'Poor fit' },
      { label: 'Reason', value: 'Loose' },
    ]);
    const remake = historyLines(
      historyOf(created({ caseId: 'CA-2025-100', kind: 'refinement', reasonCode: null, reason: '' })),
    );
    expect(remake[0].sentence).toBe('dr.lee ordered this case as a refinement of CA-2025-100');
  });
});
