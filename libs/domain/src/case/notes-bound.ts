import type { Note } from './case.js';
import { CASE_TEXTS } from './texts.js';
import { LIMITS } from '../validation/validation.js';

/** The characters of every note's text together: what the total-size bound counts. */
export function notesTextLength(notes: readonly Note[]): number {
  let total = 0;
  for (const note of notes) total += note.text.length;
  return total;
}

/**
 * Why one more note with this text does not fit on the case (the count or the total-size bound),
 * or undefined when it does. A person's note is refused with this text; a note the workflow
 * writes itself (approval, reassignment…) is left out of the list instead, so no command ever
 * fails for it — the event that would have written it stays in the case's history.
 */
export function notesFull(notes: readonly Note[], text: string): string | undefined {
  if (notes.length >= LIMITS.notesPerCase) return CASE_TEXTS.tooManyNotes(LIMITS.notesPerCase);
  if (notesTextLength(notes) + text.length > LIMITS.notesTextPerCase)
    return CASE_TEXTS.notesTooLarge(LIMITS.notesTextPerCase);
  return undefined;
}
