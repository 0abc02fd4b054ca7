import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Case } from '@alignerflow/domain';
import { ActionError } from '../case-shared/ActionError';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { formatDateTime } from '../../components/formatDateTime';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';

interface CommunicationTabProps {
  item: Case;
  commands: CaseCommandRunner;
}

/** 'Communication': the case notes (author, time, text; the list scrolls at 15rem) and 'Add Note'. */
export function CommunicationTab({ item, commands }: CommunicationTabProps) {
  const id = useId();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const count = item.notes.length;

  // The newest note is at the bottom: keep it in view when one arrives.
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [count]);

  async function add(event: FormEvent) {
    event.preventDefault();
    const note = text.trim();
    if (!note) return;
    if (await commands.run('note', () => caseDetailApi.addNote(item, note))) setText('');
  }

  return (
    <div className="cd-tab">
      <h3 className="cd-tab__heading">{T.notes}</h3>
      {count === 0 ? (
        <p className="muted">{T.noNotesYet}</p>
      ) : (
        <ol className="cd-notes" ref={list} tabIndex={0} aria-label={T.notes}>
          {item.notes.map((note) => (
            <li key={note.id} className="cd-note">
              <div className="cd-note__head">
                <strong>{note.author}</strong>
                {note.role ? <span className="muted small"> · {note.role}</span> : null}
                <time className="muted small cd-note__time" dateTime={note.timestamp}>
                  {formatDateTime(note.timestamp)}
                </time>
              </div>
              <p className="cd-prewrap">{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={add} className="cd-add-note">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-note`}>
            {T.addNote}
          </label>
          <textarea
            id={`${id}-note`}
            rows={3}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <button
          type="submit"
          className="button button--primary"
          disabled={!text.trim() || commands.busy === 'note'}
        >
          {T.addNote}
        </button>
        <ActionError message={commands.errors.note} />
      </form>
    </div>
  );
}
