import type { CaseFile } from './case.js';
import { CASE_ERASURE, erasedCase, isRetentionYears } from './erasure.js';
import {
  E,
  NOW,
  accepted,
  apply,
  caseAt,
  designer,
  given,
  managerOnly,
  refused,
  road,
  run,
  time,
} from '../testing/case-fixtures.js';

const photo: CaseFile = {
  name: 'front.png',
  type: 'Photo',
  url: '/api/files/00000000-0000-0000-0000-000000000011/front.png',
  size: '0.10 MB',
};
const reason = 'Patient asked for erasure';
/** A completed case with a photo, a note and a plan note. */
const completed = () =>
  given(
    ...road('Completed', { patientName: 'Ada Quist', treatmentPlanNotes: 'Intrude 11' }),
    E.filesAdded(photo),
    E.note('Call after 5'),
  );

describe('EraseCase', () => {
  it('given a completed or rejected case, when a Manager erases it, then one CaseErased with the reason', () => {
    for (const state of [completed(), caseAt('Rejected')])
      expect(run(state, { type: 'EraseCase', reason })).toEqual(
        accepted({ type: 'CaseErased', data: { reason } }),
      );
  });

  it('given a case still in the lab, then 409 whoever asks', () => {
    for (const status of ['Pending Approval', 'Digital Planning', 'Delivery to Doctor'] as const) {
      expect(run(caseAt(status), { type: 'EraseCase', reason })).toEqual(
        refused('conflict', CASE_ERASURE.onlyClosed),
      );
      expect(run(caseAt(status), { type: 'EraseCase', reason }, designer)).toEqual(
        refused('conflict', CASE_ERASURE.onlyClosed),
      );
    }
  });

  it('given a completed case, when anyone but a Manager asks, or without a reason, then refused', () => {
    expect(run(completed(), { type: 'EraseCase', reason }, designer)).toEqual(managerOnly);
    expect(run(completed(), { type: 'EraseCase', reason: '  ' })).toEqual(
      refused('invalid', CASE_ERASURE.reasonRequired),
    );
  });

  it('given an erased case, when erased again, then no new event', () => {
    const erased = apply(completed(), run(completed(), { type: 'EraseCase', reason }));
    expect(run(erased, { type: 'EraseCase', reason })).toEqual(accepted());
  });

  it('then the case reads "Erased patient", texts "[erased]" with author and time, no files', () => {
    const before = completed();
    const erased = apply(before, run(before, { type: 'EraseCase', reason }));
    expect(erased).toMatchObject({
      patientName: 'Erased patient',
      treatmentPlanNotes: '[erased]',
      files: [],
      erasedAt: NOW,
      erasedBy: 'admin',
      status: 'Completed',
      doctorName: before.doctorName,
      alignerWorkflow: before.alignerWorkflow,
      version: before.version + 1,
    });
    expect(erased.notes).toEqual(before.notes.map((note) => ({ ...note, text: '[erased]' })));
  });

  it('is the same case whether the earlier texts were readable or already erased (a replay)', () => {
    const readable = completed();
    // What a replay reads once the key is gone: each sealed field as its erased value.
    const unreadable = given(
      ...road('Completed', { patientName: 'Erased patient', treatmentPlanNotes: '[erased]' }),
      E.filesAdded(),
      E.note('[erased]'),
    );
    const at = time(40);
    expect(erasedCase(unreadable, 'admin', at)).toEqual(erasedCase(readable, 'admin', at));
  });

  it('keeps an empty plan note empty, and counts the earlier notes of a snapshot as erased', () => {
    const state = { ...given(...road('Completed')), earlierNotes: { count: 3, textLength: 120 } };
    const erased = erasedCase(state, 'system', NOW);
    expect(erased.treatmentPlanNotes).toBe('');
    expect(erased.earlierNotes).toEqual({ count: 3, textLength: 3 * '[erased]'.length });
  });
});

describe('PurgeFile', () => {
  const withPhoto = () => given(...road('Digital Planning'), E.filesAdded(photo));

  it('given a file of the case, when a Manager purges it with a reason, then FilePurged and it leaves the list', () => {
    const decision = run(withPhoto(), { type: 'PurgeFile', url: photo.url, reason: 'Misfiled' });
    expect(decision).toEqual(accepted({ type: 'FilePurged', data: { url: photo.url, reason: 'Misfiled' } }));
    expect(apply(withPhoto(), decision).files).toEqual([]);
  });

  it('refuses anyone but a Manager, an unknown file and a missing reason', () => {
    expect(run(withPhoto(), { type: 'PurgeFile', url: photo.url, reason: 'x' }, designer)).toEqual(
      managerOnly,
    );
    expect(run(withPhoto(), { type: 'PurgeFile', url: '/api/files/x/y', reason: 'x' })).toEqual(
      refused('not_found', 'File not found.'),
    );
    expect(run(withPhoto(), { type: 'PurgeFile', url: photo.url, reason: '' })).toEqual(
      refused('invalid', CASE_ERASURE.reasonRequired),
    );
  });
});

describe('retention years', () => {
  it.each([
    [1, true],
    [30, true],
    [null, true],
    [0, false],
    [31, false],
    [2.5, false],
    ['5', false],
  ])('%j → %j', (years, ok) => expect(isRetentionYears(years)).toBe(ok));
});
