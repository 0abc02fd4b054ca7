import { CASE_STATUSES, type Case } from '@alignerflow/domain';
import { formatDate, NOT_AVAILABLE } from '../../components/format';
import { formatDateTime } from '../../components/formatDateTime';
import { TICKET_TEXTS as T } from './texts';
import { Fact } from '../../components/Fact';

/** How many notes the ticket carries: the latest, newest first. */
export const TICKET_NOTES = 3;

interface WorkTicketProps {
  item: Case;
  /** The case QR (the QR dialog's payload and error-correction level), as a data URL. */
  qrDataUrl: string;
  onQrLoaded?: () => void;
  printedAt?: Date;
}

const sheetCount = (value: number | null) =>
  value === null || value === undefined ? NOT_AVAILABLE : String(value);

/**
 * The work ticket: the case QR, who and when, the sheets, the eleven workflow stages as tick
 * boxes (the current one marked, the done ones ticked) and the last three notes. It is laid out
 * for one printed page, A4 or Letter (ticket.css); long texts are clipped, never spill over.
 */
export function WorkTicket({ item, qrDataUrl, onQrLoaded, printedAt = new Date() }: WorkTicketProps) {
  const steps = new Map(item.alignerWorkflow.map((step) => [step.name, step]));
  const notes = item.notes.slice(-TICKET_NOTES).reverse();
  return (
    <article className="work-ticket" aria-label={T.title}>
      <header className="work-ticket__head">
        <div className="work-ticket__identity">
          <p className="work-ticket__title">{T.title}</p>
          <p className="work-ticket__id">{item.id}</p>
          <p className="work-ticket__patient">{item.patientName}</p>
          <p className="work-ticket__printed">{T.printedAt(formatDateTime(printedAt.toISOString()))}</p>
        </div>
        <img className="work-ticket__qr" src={qrDataUrl} alt={T.qrAlt(item.id)} onLoad={onQrLoaded} />
      </header>

      <dl className="work-ticket__facts">
        <Fact term={T.caseId} value={item.id} />
        <Fact term={T.patient} value={item.patientName} />
        <Fact term={T.doctor} value={item.doctorName} />
        <Fact term={T.clinic} value={item.clinicName} />
        <Fact term={T.dueDate} value={formatDate(item.deliveryDate)} />
        <Fact
          term={T.priority}
          value={item.priority}
          valueClassName={item.priority === 'High' ? 'work-ticket__high' : undefined}
        />
        <Fact
          className="work-ticket__wide"
          term={T.sheets}
          value={T.sheetsValue(sheetCount(item.upperSheets), sheetCount(item.lowerSheets))}
        />
      </dl>

      <h2 className="work-ticket__heading">{T.checklist}</h2>
      <table className="work-ticket__checklist">
        <thead>
          <tr>
            <th scope="col" className="work-ticket__box-col">
              <span className="visually-hidden">{T.done}</span>
            </th>
            <th scope="col">{T.stage}</th>
            <th scope="col">{T.assignedTo}</th>
            <th scope="col">{T.initials}</th>
          </tr>
        </thead>
        <tbody>
          {CASE_STATUSES.map((status) => {
            const step = steps.get(status);
            const current = status === item.status;
            const done = !!step?.completed;
            return (
              <tr key={status} className={current ? 'is-current' : undefined} data-stage={status}>
                <td className="work-ticket__box-col">
                  <span
                    className={`work-ticket__box${done ? ' is-done' : ''}`}
                    aria-label={done ? T.done : undefined}
                  >
                    {done ? '✓' : ''}
                  </span>
                </td>
                <td>
                  {status}
                  {current ? <span className="work-ticket__current"> ◀ {T.current}</span> : null}
                </td>
                <td>{step?.assignedTo ?? ''}</td>
                <td className="work-ticket__blank" />
              </tr>
            );
          })}
        </tbody>
      </table>

      <h2 className="work-ticket__heading">{T.lastNotes}</h2>
      {notes.length === 0 ? (
        <p className="work-ticket__note">{T.noNotes}</p>
      ) : (
        <ol className="work-ticket__notes">
          {notes.map((note) => (
            <li key={note.id} className="work-ticket__note">
              <span className="work-ticket__note-by">
                {note.author} ({note.role}), {formatDateTime(note.timestamp)}
              </span>
              <span className="work-ticket__note-text">{note.text}</span>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
