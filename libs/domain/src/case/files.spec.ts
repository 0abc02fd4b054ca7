import {
  completedCase,
  created,
  designer,
  drLee,
  drPatel,
  fold,
  manager,
  time,
} from '../testing/case-work-fixtures.js';
import type { Case, CaseFile } from './case.js';
import { decide } from './decide.js';
import { evolve } from './evolve.js';
import { CASE_TEXTS, CASE_WORK_TEXTS } from './texts.js';
import type { Actor } from '../permissions/roles.js';

const stored = (n: number, name = `scan-${n}.pdf`, type = 'Document'): CaseFile =>
  ({
    name,
    type,
    url: `/api/files/00000000-0000-0000-0000-00000000001${n}/${name}`,
    size: '0.10 MB',
  }) as CaseFile;
const withDoctor = (): Case => ({ ...fold(created), assignedDoctorUsername: 'dr.lee' });
const add = (files: unknown, actor: Actor = designer, state = withDoctor()) =>
  decide(state, { type: 'AddFiles', files }, actor, time(10));
const remove = (url: unknown, reason: unknown, actor: Actor = manager, state = withDoctor()) =>
  decide(state, { type: 'RemoveFile', url, reason }, actor, time(10));

describe('adding files to a case', () => {
  it('staff and the case doctor add stored uploads: one FilesAdded with them', () => {
    for (const actor of [designer, manager, drLee]) {
      expect(add([stored(1), stored(2, 'smile.jpg', 'Photo')], actor)).toEqual({
        ok: true,
        events: [{ type: 'FilesAdded', data: { files: [stored(1), stored(2, 'smile.jpg', 'Photo')] } }],
      });
    }
  });

  it('also on a completed case (records keep coming after delivery)', () => {
    expect(add([stored(3)], manager, completedCase()).ok).toBe(true);
  });

  it('another doctor: not found', () => {
    expect(add([stored(1)], drPatel)).toEqual({
      ok: false,
      rejection: { kind: 'not_found', message: CASE_TEXTS.notFound },
    });
  });

  it.each([
    [[], CASE_WORK_TEXTS.filesRequired],
    ['nope', CASE_WORK_TEXTS.filesRequired],
    [Array.from({ length: 21 }, (_, n) => stored(n % 10)), CASE_WORK_TEXTS.tooManyFiles(20)],
    [[{ ...stored(1), type: 'Simulation Video' }], CASE_WORK_TEXTS.fileShape],
    [[{ url: stored(1).url }], CASE_WORK_TEXTS.fileShape],
    [[{ ...stored(1), url: 'https://elsewhere.example/x.pdf' }], CASE_WORK_TEXTS.notAnUpload('scan-1.pdf')],
    [[stored(1), stored(1)], CASE_WORK_TEXTS.duplicateFile('scan-1.pdf')],
    [
      [created.type === 'CaseCreated' ? created.data.files[0] : null],
      CASE_WORK_TEXTS.alreadyAttached('upper.stl'),
    ],
  ])('bad input %# → 400', (files, message) => {
    expect(add(files)).toEqual({ ok: false, rejection: { kind: 'invalid', message } });
  });

  it('evolve appends the files to the list', () => {
    const state = withDoctor();
    const next = evolve(state, {
      type: 'FilesAdded',
      data: { files: [stored(4)] },
      actor: drLee,
      at: time(11),
    });
    expect(next.files).toEqual([...state.files, stored(4)]);
  });
});

describe('removing a file from a case', () => {
  const url = withDoctor().files[0].url;

  it('a Manager removes it with a reason; the list loses it', () => {
    const decision = remove(url, '  Wrong patient ');
    expect(decision).toEqual({
      ok: true,
      events: [{ type: 'FileRemoved', data: { url, reason: 'Wrong patient' } }],
    });
    const next = evolve(withDoctor(), {
      type: 'FileRemoved',
      data: { url, reason: 'Wrong patient' },
      actor: manager,
      at: time(12),
    });
    expect(next.files).toEqual([]);
  });

  it.each([designer, drLee])('%o may not', (actor) => {
    expect(remove(url, 'x', actor)).toEqual({
      ok: false,
      rejection: { kind: 'forbidden', message: CASE_TEXTS.managerOnly },
    });
  });

  it('an unknown url: 404; no reason: 400', () => {
    expect(remove('/api/files/nope/x', 'x')).toEqual({
      ok: false,
      rejection: { kind: 'not_found', message: CASE_WORK_TEXTS.fileNotFound },
    });
    expect(remove(url, '  ')).toEqual({
      ok: false,
      rejection: { kind: 'invalid', message: CASE_WORK_TEXTS.removeReasonRequired },
    });
  });
});
