import { randomBytes } from 'node:crypto';
import { openEvent, sealEvent, sealValue, SEALED_BATCH } from './case-event-cipher.js';
import { freshIv } from './random-ivs.js';
import { erasedValue, mapSealedFields } from './sealed-fields.js';

const KEY = randomBytes(32);

const imported = {
  case: {
    id: 'CA-2030-10000',
    patientName: 'Jordan Example',
    treatmentPlanNotes: '',
    files: [{ name: 'upper.stl', url: '/api/files/x/upper.stl' }],
    notes: [{ text: 'Scan checked — ✓ margins', by: 'tech' }, { text: null }],
    planVersions: [{ comment: 'v1', simulationVideoUrl: 'https://video.example/1' }],
    origin: { reason: 'Refinement', kind: 'follow-up' },
    clinicName: 'Smile Clinic',
  },
};

describe('CaseEventCipher values', () => {
  it('gives every encryption an IV of its own, across many refills of the pool', () => {
    const ivs = new Set(Array.from({ length: 5000 }, () => freshIv().toString('hex')));
    expect(ivs.size).toBe(5000);
    expect(freshIv()).toHaveLength(12);
    // Two seals of the same value under the same key never give the same ciphertext.
    expect(sealValue('Jordan', 'CA-1', KEY)).not.toBe(sealValue('Jordan', 'CA-1', KEY));
  });

  it('opens what it sealed, multi-byte text included; not under another key nor another case', () => {
    const sealed = sealEvent({ type: 'CaseImported', data: imported }, 'CA-2030-10000', KEY);
    const stored = JSON.parse(JSON.stringify(sealed.data));
    expect(typeof stored[SEALED_BATCH]).toBe('string');
    expect(JSON.stringify(stored)).not.toContain('Jordan');
    expect(JSON.stringify(stored)).not.toContain('margins');
    expect(openEvent('CaseImported', stored, 'CA-2030-10000', KEY)).toEqual(imported);

    const erased = openEvent('CaseImported', stored, 'CA-2030-10000', randomBytes(32)) as typeof imported;
    expect(erased.case.patientName).toBe(erasedValue('name'));
    expect(erased.case.files).toEqual([]);
    expect(erased.case.treatmentPlanNotes).toBe(''); // empty stays empty
    expect(erased.case.clinicName).toBe('Smile Clinic');
    const elsewhere = openEvent('CaseImported', stored, 'CA-2030-10001', KEY) as typeof imported;
    expect(elsewhere.case.patientName).toBe(erasedValue('name'));
    expect(openEvent('CaseImported', stored, 'CA-2030-10000', null)).toEqual(erased);
  });

  it('maps every sealed field once, copying only what changed and leaving the input as it was', () => {
    const before = JSON.stringify(imported);
    const seen: string[] = [];
    const mapped = mapSealedFields('CaseImported', imported, (value, kind) => {
      seen.push(kind);
      return `<${kind}>`;
    }) as typeof imported & { case: Record<string, unknown> };
    expect(JSON.stringify(imported)).toBe(before);
    expect(seen.sort()).toEqual(['files', 'link', 'name', 'text', 'text', 'text'].sort());
    expect(mapped.case).toMatchObject({
      patientName: '<name>',
      treatmentPlanNotes: '',
      files: '<files>',
      notes: [{ text: '<text>', by: 'tech' }, { text: null }],
      planVersions: [{ comment: '<text>', simulationVideoUrl: '<link>' }],
      origin: { reason: '<text>', kind: 'follow-up' },
      clinicName: 'Smile Clinic',
    });
    expect(mapSealedFields('CaseImported', imported, (value) => value)).toBe(imported);
    expect(mapSealedFields('StageAdvanced', imported, () => 'x')).toBe(imported);
  });
});
