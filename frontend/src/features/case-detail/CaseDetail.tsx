import { useState } from 'react';
import type { Case, User } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { caseAbilities } from '../case-shared/caseAbilities';
import { useCaseScreenParts, type CaseView } from '../case-shared/caseScreenParts';
import { CaseLinks } from '../case-shared/CaseLinks';
import { ApprovalPanel } from './ApprovalPanel';
import { CaseFiles } from './CaseFiles';
import { ErasurePanel } from './ErasurePanel';
import { CaseHeader } from './CaseHeader';
import { CaseTabs } from './CaseTabs';
import { ExternalViewerDialog } from './ExternalViewerDialog';
import { SimulationLinksPanel } from './SimulationLinksPanel';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { TreatmentPlanPanel } from './TreatmentPlanPanel';
import { useCaseCommand } from '../case-shared/useCaseCommand';
import { useCaseRecord } from './useCaseRecord';
import { WorkflowProgress } from './WorkflowProgress';

export interface CaseDetailProps {
  caseId: string;
  user: User;
  onBack: () => void;
  /** Opens the Edit Case modal (Managers). */
  onEdit: (caseId: string) => void;
  /** Opens the 'Case QR Code' dialog (features/qr). */
  onShowCaseQr: (item: Case) => void;
  /** Opens the 'Aligner Stage QR Codes' sheet (features/qr). */
  onShowStageQrs: (item: Case) => void;
  /** Opens another case (a remake's original, a follow-up). */
  onOpenCase?: (caseId: string) => void;
}

/**
 * The case detail screen of spec section 2, with the History tab beyond it. What other features
 * add (ticket, invoice, follow-up, plan versions, device record, access log) comes from the
 * app through `useCaseScreenParts`.
 */
export function CaseDetail({
  caseId,
  user,
  onBack,
  onEdit,
  onShowCaseQr,
  onShowStageQrs,
  onOpenCase,
}: CaseDetailProps) {
  const record = useCaseRecord(caseId);
  const commands = useCaseCommand(caseId);
  const parts = useCaseScreenParts();
  const [externalUrl, setExternalUrl] = useState<string | null>(null);

  const back = (
    <button type="button" className="button button--ghost cd-back" onClick={onBack}>
      <Icon name="back" />
      {T.backToDashboard}
    </button>
  );

  if (record.status !== 'ready') {
    return (
      <div className="page">
        {back}
        {record.status === 'loading' ? (
          <p className="empty" role="status">
            {T.loading}
          </p>
        ) : record.status === 'notFound' ? (
          <p className="empty">{T.notFound}</p>
        ) : (
          <p className="form-error" role="alert">
            {record.reason}
          </p>
        )}
      </div>
    );
  }

  const item = record.item;
  const abilities = caseAbilities(item, user);
  const view: CaseView = { item, user, abilities, commands, onOpenCase };
  return (
    <div className="page cd-page">
      {back}
      <CaseHeader
        item={item}
        abilities={abilities}
        commands={commands}
        onEdit={() => onEdit(item.id)}
        onShowCaseQr={() => onShowCaseQr(item)}
        onShowStageQrs={() => onShowStageQrs(item)}
        extraActions={parts.headerActions?.(view)}
      />
      <CaseLinks item={item} onOpenCase={onOpenCase} />
      {parts.belowHeader?.(view)}
      <ErasurePanel item={item} user={user} commands={commands} />
      {item.onHold ? (
        <div className="banner banner--warning cd-hold-banner" role="status">
          <Icon name="pause" />
          <span>{T.onHoldBanner}</span>
        </div>
      ) : null}
      {abilities.approve ? <ApprovalPanel item={item} user={user} commands={commands} /> : null}
      {abilities.reviewPlan ? (
        <TreatmentPlanPanel item={item} user={user} commands={commands} onOpenExternal={setExternalUrl} />
      ) : null}
      {parts.belowPlan?.(view)}
      <WorkflowProgress
        item={item}
        canReassign={abilities.reassignRole}
        reassignEnabled={abilities.reassign}
        commands={commands}
      />
      {parts.belowWorkflow?.(view)}
      <div className="cd-layout">
        <div className="cd-layout__main">
          {abilities.saveSimulation ? (
            <SimulationLinksPanel key={item.id} item={item} user={user} commands={commands} />
          ) : null}
          <CaseFiles
            item={item}
            canAnalyze={abilities.analyzePhoto}
            onOpenExternal={setExternalUrl}
            addFiles={parts.addFiles?.(view)}
            work={{ user, commands, canRemove: abilities.removeFile }}
          />
        </div>
        <div className="cd-layout__side">
          <CaseTabs view={view} extraTabs={parts.tabs} />
        </div>
      </div>
      {externalUrl ? <ExternalViewerDialog url={externalUrl} onClose={() => setExternalUrl(null)} /> : null}
    </div>
  );
}
