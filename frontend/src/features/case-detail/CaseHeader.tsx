import type { ReactNode } from 'react';
import type { Case } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { StatusBadge } from '../../components/StatusBadge';
import { ActionError } from '../case-shared/ActionError';
import type { CaseAbilities } from '../case-shared/caseAbilities';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { Fact } from '../../components/Fact';

interface CaseHeaderProps {
  item: Case;
  abilities: CaseAbilities;
  commands: CaseCommandRunner;
  onEdit: () => void;
  onShowCaseQr: () => void;
  onShowStageQrs: () => void;
  /** Buttons other features add (the work ticket's 'Print Ticket'), first in the row. */
  extraActions?: ReactNode;
}

/** The case's header: patient, priority, id, clinic and doctor; the role's buttons; the summary row. */
export function CaseHeader({
  item,
  abilities,
  commands,
  onEdit,
  onShowCaseQr,
  onShowStageQrs,
  extraActions,
}: CaseHeaderProps) {
  const high = item.priority === 'High';
  const titleId = `case-title-${item.id}`;
  return (
    <section className="panel cd-header" aria-labelledby={titleId}>
      <div className="cd-header__top">
        <div className="cd-header__identity">
          <div className="cd-header__title-row">
            <h1 id={titleId}>{item.patientName}</h1>
            <span
              className={`cd-priority cd-priority--${high ? 'high' : 'normal'}`}
              title={T.priorityLabel(item.priority)}
            >
              <span className="visually-hidden">{T.priority}: </span>
              {high ? T.priorityHigh : T.priorityNormal}
            </span>
          </div>
          <p className="cd-header__meta">
            <span className="mono">{item.id}</span>
            <span>
              <span className="visually-hidden">{T.clinic}: </span>
              {item.clinicName}
            </span>
            <span>
              <span className="visually-hidden">{T.doctor}: </span>
              {item.doctorName}
            </span>
          </p>
        </div>
        <div className="button-row cd-header__actions" role="group" aria-label={T.caseActions}>
          {extraActions}
          {abilities.showQr ? (
            <button type="button" className="button button--secondary" onClick={onShowCaseQr}>
              <Icon name="qr" />
              {T.qrCode}
            </button>
          ) : null}
          {abilities.showStageQrs ? (
            <button type="button" className="button button--secondary" onClick={onShowStageQrs}>
              <Icon name="qr" />
              {T.stageQrs}
            </button>
          ) : null}
          {abilities.edit ? (
            <button type="button" className="button button--secondary" onClick={onEdit}>
              <Icon name="edit" />
              {T.edit}
            </button>
          ) : null}
          {abilities.hold ? (
            <button
              type="button"
              className={`button ${item.onHold ? 'button--primary' : 'button--secondary'}`}
              disabled={commands.busy === 'hold'}
              onClick={() =>
                void commands.run('hold', () =>
                  item.onHold ? caseDetailApi.resume(item) : caseDetailApi.hold(item),
                )
              }
            >
              <Icon name={item.onHold ? 'play' : 'pause'} />
              {item.onHold ? T.resume : T.hold}
            </button>
          ) : null}
        </div>
      </div>
      <ActionError message={commands.errors.hold} />
      <dl className="cd-summary" aria-label={T.summary}>
        <Fact term={T.status} value=<StatusBadge status={item.status} onHold={item.onHold} /> />
        <Fact term={T.created} value={formatDate(item.createdDate)} />
        <Fact term={T.dueDate} value={formatDate(item.deliveryDate)} />
        <Fact term={T.assignedTechnicians} value={item.assignedTechnicians.join(', ') || T.unassigned} />
      </dl>
    </section>
  );
}
