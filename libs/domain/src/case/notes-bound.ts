import type { Case, CaseSummary, Note, NotesSize } from './case.js';
import { CASE_TEXTS } from './texts.js';
import { LIMITS } from '../validation/validation.js';

/** The characters of every note's text together: what the total-size bound counts. */
export function notesTextLength(notes: readonly Note[]): number {
  let total = 0;
  for (const note of notes) total += note.text.length;
  return total;
}

/** The count and size of a case's notes, read or not (Case.earlierNotes). */
export function notesSize(state: Pick<Case, 'notes' | 'earlierNotes'>): NotesSize {
  const earlier = state.earlierNotes;
  return {
    count: (earlier?.count ?? 0) + state.notes.length,
    textLength: (earlier?.textLength ?? 0) + notesTextLength(state.notes),
  };
}

/**
 * Why one more note with this text does not fit on the case (the count or the total-size bound),
 * or undefined when it does. A person's note is refused with this text; a note the workflow
 * writes itself (approval, reassignment…) is left out of the list instead, so no command ever
 * fails for it — the event that would have written it stays in the case's history.
 */
export function notesFull(state: Pick<Case, 'notes' | 'earlierNotes'>, text: string): string | undefined {
  const size = notesSize(state);
  if (size.count >= LIMITS.notesPerCase) return CASE_TEXTS.tooManyNotes(LIMITS.notesPerCase);
  if (size.textLength + text.length > LIMITS.notesTextPerCase)
    return CASE_TEXTS.notesTooLarge(LIMITS.notesTextPerCase);
  return undefined;
}

/** The case as the list and the live stream carry it (CaseSummary). */
export function toCaseSummary(state: Case): CaseSummary {
  const { notes: _notes, earlierNotes: _earlier, deleted: _deleted, ...fields } = state;
  return { ...fields, noteCount: notesSize(state).count };
}

/**
 * A summary as a state to decide on: its notes counted, not carried. Every rule holds on it but
 * the notes' total-size bound, which needs their text (the server, holding it, checks that one).
 */
export function decidableSummary({ noteCount, ...fields }: CaseSummary): Case {
  return { ...fields, notes: [], earlierNotes: { count: noteCount, textLength: 0 } };
}
