import { erasedCase, evolve, type Case } from '@alignerflow/domain';
import { E, given, stamp } from '@alignerflow/domain/testing';
import { CaseAnswerJson } from './case-answer-json';

/** The case after a note, as the command path's evolve makes it (the earlier notes kept by reference). */
const noted = (state: Case, text: string) => evolve(state, stamp([E.note(text)])[0]);

describe('CaseAnswerJson', () => {
  it('writes a case as JSON.stringify does, the notes in their place', () => {
    const answers = new CaseAnswerJson();
    for (const state of [
      given(E.created()),
      given(E.created({ patientName: 'Ann "the" \\ Lee' }), E.note('One, "quoted".'), E.approved()),
    ])
      expect(answers.of(state)).toBe(JSON.stringify(state));
  });

  it('extends the notes it wrote for the case by those added since, and writes them anew when they were replaced', () => {
    const answers = new CaseAnswerJson();
    let state = given(E.created(), E.note('First.'));
    expect(answers.of(state)).toBe(JSON.stringify(state));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      for (const note of ['Second.', 'Third, with a "quote".']) {
        state = noted(state, note);
        stringify.mockClear();
        const text = answers.of(state);
        // Only what is new was serialised: the case without its notes, and the one new note.
        const serialised = stringify.mock.calls.map(([value]) =>
          Array.isArray(value) ? value.length : 'case',
        );
        expect(serialised).toEqual(['case', 1]);
        expect(text).toBe(JSON.stringify(state));
      }
      // An erasure replaces every note: the text is made anew.
      const erased = erasedCase(state, 'admin', '2025-03-20T10:00:00.000Z');
      expect(answers.of(erased)).toBe(JSON.stringify(erased));
      expect(answers.of(erased)).not.toContain('Third, with');
    } finally {
      stringify.mockRestore();
    }
  });

  it('keeps at most its limits, the least recently used going first', () => {
    const answers = new CaseAnswerJson(1);
    const a = given(E.created({ id: 'CA-1' }), E.note('A.'));
    const b = given(E.created({ id: 'CA-2' }), E.note('B.'));
    answers.of(a);
    answers.of(b); // CA-1's notes are forgotten
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      answers.of(a);
      expect(stringify.mock.calls.some(([value]) => value === a.notes)).toBe(true);
    } finally {
      stringify.mockRestore();
    }
  });
});
