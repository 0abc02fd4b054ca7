import { randomBytes } from 'node:crypto';
import type { Case, Note } from '@alignerflow/domain';

/** Cases whose notes' JSON is kept, and characters of it at most; the least recently used go first. */
const KEPT_CASES = 1_000;
const KEPT_CHARS = 64 * 1024 * 1024;

/**
 * Stands for the notes in the case's own JSON, then is replaced by their text: random per process,
 * so no field a user wrote can hold it.
 */
const NOTES_MARK = `"notes-${randomBytes(12).toString('hex')}"`;

interface KeptNotes {
  /** The notes the text was made of, by reference (a case's notes are replaced, never changed). */
  notes: Note[];
  /** Their JSON array. */
  text: string;
}

/**
 * A command's answer, the whole case, as JSON text, the same as JSON.stringify gives it. A case
 * with many notes made most of a command's CPU the serialising of notes the previous answer
 * had serialised already (docs/performance.md, the note p50 on a large case): their text is
 * kept per case and extended by the notes added since, as long as the earlier notes are the very
 * objects it was made of (evolve appends a note and keeps the others; an erasure replaces them,
 * and the text is made anew).
 */
export class CaseAnswerJson {
  private readonly kept = new Map<string, KeptNotes>();
  private chars = 0;

  constructor(
    private readonly maxCases = KEPT_CASES,
    private readonly maxChars = KEPT_CHARS,
  ) {}

  of(state: Case): string {
    const head = JSON.stringify({ ...state, notes: NOTES_MARK.slice(1, -1) });
    const at = head.indexOf(NOTES_MARK);
    return `${head.slice(0, at)}${this.notesText(state.id, state.notes)}${head.slice(at + NOTES_MARK.length)}`;
  }

  private notesText(caseId: string, notes: Note[]): string {
    const before = this.kept.get(caseId);
    let text: string;
    if (before && before.notes.length <= notes.length && before.notes.every((note, i) => note === notes[i])) {
      const added = notes.slice(before.notes.length);
      text = added.length
        ? `${before.text.slice(0, -1)}${before.notes.length ? ',' : ''}${JSON.stringify(added).slice(1)}`
        : before.text;
    } else {
      text = JSON.stringify(notes);
    }
    this.keep(caseId, { notes: notes.slice(), text });
    return text;
  }

  private keep(caseId: string, entry: KeptNotes): void {
    const before = this.kept.get(caseId);
    if (before) {
      this.kept.delete(caseId);
      this.chars -= before.text.length;
    }
    this.kept.set(caseId, entry);
    this.chars += entry.text.length;
    while (this.kept.size > this.maxCases || (this.chars > this.maxChars && this.kept.size)) {
      const [oldest, { text }] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.chars -= text.length;
    }
  }
}
