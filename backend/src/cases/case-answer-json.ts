import { randomBytes } from 'node:crypto';
import type { Case, Note } from '@alignerflow/domain';

/** Cases whose notes' JSON is kept, and bytes of it at most; the least recently used go first. */
const KEPT_CASES = 1_000;
const KEPT_BYTES = 64 * 1024 * 1024;
/** The least room a case's notes get once they grow: a few notes' worth, so the first ones do not each copy. */
const MIN_ROOM = 4 * 1024;

/**
 * Stands for the notes in the case's own JSON, then is replaced by their text: random per process,
 * so no field a user wrote can hold it.
 */
const NOTES_MARK = `"notes-${randomBytes(12).toString('hex')}"`;

interface KeptNotes {
  /**
   * How many notes the bytes hold, and the first and last of them, by reference: a case's notes
   * are added after the others or replaced all at once (NOTES_REWRITING_EVENTS), so notes that
   * still begin and end their first `count` with these very objects are the ones written here.
   * Holding the array itself would keep a copy of every case's notes alive per command.
   */
  count: number;
  first: Note | undefined;
  last: Note | undefined;
  /**
   * Their JSON array as UTF-8 without its closing bracket (`[`, then the notes, comma-separated)
   * in the first `length` bytes; the rest is room for the notes to come.
   */
  bytes: Buffer;
  length: number;
}

/**
 * A command's answer, the whole case, as JSON bytes, the same as JSON.stringify gives it. A case
 * with many notes made most of a command's CPU the serialising of notes the previous answer had
 * serialised already, and then the encoding of the whole text to UTF-8 as it was sent
 * (docs/performance.md, the note p50 on a large case): their bytes are kept per case and
 * extended in place by the notes added since, as long as the earlier notes are the very objects
 * they were made of (evolve appends a note and keeps the others; an erasure replaces them, and
 * the bytes are made anew; see KeptNotes). Each answer is a copy, so extending never touches one being sent.
 */
export class CaseAnswerJson {
  private readonly kept = new Map<string, KeptNotes>();
  private bytes = 0;

  constructor(
    private readonly maxCases = KEPT_CASES,
    private readonly maxBytes = KEPT_BYTES,
  ) {}

  of(state: Case): Buffer {
    const head = JSON.stringify({ ...state, notes: NOTES_MARK.slice(1, -1) });
    const at = head.indexOf(NOTES_MARK);
    return Buffer.concat([
      Buffer.from(head.slice(0, at)),
      this.notesBytes(state.id, state.notes),
      Buffer.from(`]${head.slice(at + NOTES_MARK.length)}`),
    ]);
  }

  private notesBytes(caseId: string, notes: Note[]): Buffer {
    const before = this.kept.get(caseId);
    let entry: KeptNotes;
    if (
      before &&
      before.count <= notes.length &&
      (before.count === 0 || (notes[0] === before.first && notes[before.count - 1] === before.last))
    ) {
      const added = notes.slice(before.count);
      entry = added.length
        ? extended(
            before,
            notes,
            Buffer.from(`${before.count ? ',' : ''}${JSON.stringify(added).slice(1, -1)}`),
          )
        : before;
    } else {
      const bytes = Buffer.from(JSON.stringify(notes).slice(0, -1));
      entry = { ...ends(notes), bytes, length: bytes.length };
    }
    this.keep(caseId, entry);
    return entry.bytes.subarray(0, entry.length);
  }

  private keep(caseId: string, entry: KeptNotes): void {
    const before = this.kept.get(caseId);
    if (before) {
      this.kept.delete(caseId);
      this.bytes -= before.bytes.length;
    }
    this.kept.set(caseId, entry);
    this.bytes += entry.bytes.length;
    while (this.kept.size > this.maxCases || (this.bytes > this.maxBytes && this.kept.size)) {
      const [oldest, { bytes }] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.bytes -= bytes.length;
    }
  }
}

/** `kept` with `more` after its notes: in its own room if it fits, else in a buffer twice the size. */
function extended(kept: KeptNotes, notes: Note[], more: Buffer): KeptNotes {
  const length = kept.length + more.length;
  let bytes = kept.bytes;
  if (length > bytes.length) {
    bytes = Buffer.allocUnsafe(Math.max(2 * length, MIN_ROOM));
    kept.bytes.copy(bytes, 0, 0, kept.length);
  }
  more.copy(bytes, kept.length);
  return { ...ends(notes), bytes, length };
}

/** What KeptNotes holds of `notes` to know them again. */
function ends(notes: Note[]): Pick<KeptNotes, 'count' | 'first' | 'last'> {
  return { count: notes.length, first: notes[0], last: notes[notes.length - 1] };
}
