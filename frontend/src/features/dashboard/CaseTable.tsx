import type { Case } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { CaseActionButtons, type CaseActionHandlers } from './CaseActionButtons';
import { DASHBOARD_TEXTS } from './texts';

interface CaseTableProps {
  cases: Case[];
  atRisk: Set<string>;
  actions: CaseActionHandlers | null;
  onOpenCase: (id: string) => void;
}

/** Desktop case list (768 px and wider). Rows open the case with a click or Enter. */
export function CaseTable({ cases, atRisk, actions, onOpenCase }: CaseTableProps) {
  const columns = DASHBOARD_TEXTS.columns;
  return (
    <div className="table-wrap case-table">
      <table className="table" aria-labelledby="all-cases">
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
          {cases.map((item) => {
            const risky = atRisk.has(item.id);
            return (
              <tr
                key={item.id}
                className={`clickable${risky ? ' at-risk' : ''}`}
                tabIndex={0}
                onClick={() => onOpenCase(item.id)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && event.target === event.currentTarget) onOpenCase(item.id);
                }}
              >
                <td className="mono">{item.id}</td>
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
        </tbody>
      </table>
    </div>
  );
}
