import { notesSize, type Case } from '@alignerflow/domain';

/** Cases kept; past this many the least recently used go first. */
export const CACHED_CASES = 10_000;

/**
 * The planner's memory of cases: each case's state at its version (Case.version), as the events
 * the dispatcher handed it left it. Kept without the notes' texts (their count and size in
 * `earlierNotes`, as a case_view snapshot keeps them): evolve needs no more, and the alerts never
 * read a note, so a case with many notes costs no more than one with none.
 *
 * Every entry is the case's true state at its version, whatever happened to other entries, since
 * a stream's events never change; what the planner must check is only that an event follows the
 * version held.
 */
export class CaseStateCache {
  /** In use order: the first key is the least recently used. */
  private readonly states = new Map<string, Case>();

  constructor(private readonly limit = CACHED_CASES) {}

  get size(): number {
    return this.states.size;
  }

  get(caseId: string): Case | undefined {
    const state = this.states.get(caseId);
    if (state) {
      this.states.delete(caseId);
      this.states.set(caseId, state);
    }
    return state;
  }

  set(caseId: string, state: Case): void {
    this.states.delete(caseId);
    this.states.set(caseId, withoutNoteTexts(state));
    if (this.states.size > this.limit) this.states.delete(this.states.keys().next().value!);
  }

  delete(caseId: string): void {
    this.states.delete(caseId);
  }

  clear(): void {
    this.states.clear();
  }
}

/** The state with its notes counted, not carried (what evolve reads of them is their count and size). */
function withoutNoteTexts(state: Case): Case {
  if (!state.notes.length) return state;
  return { ...state, notes: [], earlierNotes: notesSize(state) };
}
