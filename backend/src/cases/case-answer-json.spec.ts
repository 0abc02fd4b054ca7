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
      expect(answers.of(state).toString()).toBe(JSON.stringify(state));
  });

  it('extends the notes it wrote for the case by those added since, and writes them anew when they were replaced', () => {
    const answers = new CaseAnswerJson();
    let state = given(E.created(), E.note('First.'));
    expect(answers.of(state).toString()).toBe(JSON.stringify(state));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      for (const note of ['Second.', 'Third, with a "quote".']) {
        state = noted(state, note);
        stringify.mockClear();
        const text = answers.of(state).toString();
        // Only what is new was serialised: the case without its notes, and the one new note.
        const serialised = stringify.mock.calls.map(([value]) =>
          Array.isArray(value) ? value.length : 'case',
        );
        expect(serialised).toEqual(['case', 1]);
        expect(text).toBe(JSON.stringify(state));
      }
      // An erasure replaces every note: the text is made anew.
      const erased = erasedCase(state, 'admin', '2025-03-20T10:00:00.000Z');
      expect(answers.of(erased).toString()).toBe(JSON.stringify(erased));
      expect(answers.of(erased).toString()).not.toContain('Third, with');
    } finally {
      stringify.mockRestore();
    }
  });

  it('knows its notes again in another array of the same notes, as each answer of the command path is', () => {
    const answers = new CaseAnswerJson();
    let state = given(E.created(), E.note('First.'), E.note('Second.'));
    answers.of({ ...state, notes: state.notes.slice() });
    state = noted(state, 'Third.');
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const text = answers.of({ ...state, notes: state.notes.slice() }).toString();
      expect(stringify.mock.calls.map(([value]) => (Array.isArray(value) ? value.length : 'case'))).toEqual([
        'case',
        1,
      ]);
      expect(text).toBe(JSON.stringify(state));
    } finally {
      stringify.mockRestore();
    }
    // As many notes, other objects (read anew from rows an erasure rewrote): written anew.
    const reread = { ...state, notes: state.notes.map((note) => ({ ...note, text: '[erased]' })) };
    expect(answers.of(reread).toString()).toBe(JSON.stringify(reread));
  });

  it('writes UTF-8, and an answer once given stays as it was while the kept notes grow past their room', () => {
    const answers = new CaseAnswerJson();
    let state = given(E.created({ patientName: 'Zoë Ångström' }), E.note('Première note — ✓ 上顎'));
    const first = answers.of(state);
    const firstText = JSON.stringify(state);
    expect(first.equals(Buffer.from(firstText))).toBe(true);
    // Enough notes that the kept bytes move to a larger buffer more than once.
    for (let n = 0; n < 300; n++)
      state = noted(state, `Note ${n}: aligner 3 fits — “snug” ✓ ${'x'.repeat(40)}`);
    expect(answers.of(state).equals(Buffer.from(JSON.stringify(state)))).toBe(true);
    expect(first.toString()).toBe(firstText);
    const before = answers.of(state);
    const beforeText = before.toString();
    state = noted(state, 'One more.');
    expect(answers.of(state).toString()).toBe(JSON.stringify(state));
    expect(before.toString()).toBe(beforeText);
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
