import type { CaseSummary } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { CaseActionButtons, type CaseActionHandlers } from './CaseActionButtons';
import { DASHBOARD_TEXTS } from './texts';
import { useRowWindow } from './useRowWindow';
import { FollowUpBadge } from '../case-shared/CaseLinks';

/** A table row's height before one is measured. */
const ROW_PX = 45;

interface CaseTableProps {
  cases: CaseSummary[];
  atRisk: Set<string>;
  actions: CaseActionHandlers | null;
  onOpenCase: (id: string) => void;
}

/**
 * Desktop case list (768 px and wider). Rows open the case with a click or Enter. A long list
 * renders only the rows near the viewport; the table still tells assistive technology its length.
 */
export function CaseTable({ cases, atRisk, actions, onOpenCase }: CaseTableProps) {
  const columns = DASHBOARD_TEXTS.columns;
  const rows = useRowWindow<HTMLDivElement>(cases.length, ROW_PX);
  const columnCount = actions ? 7 : 6;
  return (
    <div className="table-wrap case-table" ref={rows.containerRef}>
      <table
        className="table"
        aria-labelledby="all-cases"
        aria-rowcount={rows.windowed ? cases.length + 1 : undefined}
      >
        <thead>
          <tr>
            <th scope="col">{columns.id}</th>
            <th scope="col">{columns.patient}</th>
            <th scope="col">{columns.doctor}</th>
            <th scope="col">{columns.type}</th>
            <th scope="col">{columns.status}</th>
            <th scope="col">{columns.dueDate}</th>
            {actions ? <th scope="col">{columns.actions}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.before ? <Spacer height={rows.before} columns={columnCount} /> : null}
          {cases.slice(rows.start, rows.end).map((item, index) => {
            const risky = atRisk.has(item.id);
            return (
              <tr
                key={item.id}
                data-row
                aria-rowindex={rows.windowed ? rows.start + index + 2 : undefined}
                className={`clickable${risky ? ' at-risk' : ''}`}
                tabIndex={0}
                onClick={() => onOpenCase(item.id)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && event.target === event.currentTarget) onOpenCase(item.id);
                }}
              >
                <td className="mono">
                  {item.id}
                  <FollowUpBadge item={item} />
                </td>
                <td>
                  {item.patientName}
                  {risky ? <span className="risk-tag">{DASHBOARD_TEXTS.atRiskBadge}</span> : null}
                </td>
                <td>{item.doctorName}</td>
                <td>{item.type}</td>
                <td>
                  <StatusBadge status={item.status} onHold={item.onHold} />
                </td>
                <td>{formatDate(item.deliveryDate)}</td>
                {actions ? (
                  <td>
                    <CaseActionButtons item={item} {...actions} />
                  </td>
                ) : null}
              </tr>
            );
          })}
          {rows.after ? <Spacer height={rows.after} columns={columnCount} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** Stands in for rows not rendered, keeping the scroll height. */
function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" className="row-spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}
