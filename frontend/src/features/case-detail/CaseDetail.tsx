import { lazy, Suspense, useState } from 'react';
import { hasShipped, STATUS_LABELS, statusIndex, type Case, type User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { caseWorkApi } from '../case-work/caseWorkApi';
import { CaseLinks } from '../case-work/CaseLinks';
import { PlanVersions } from '../case-work/PlanVersions';
import { ReorderDialog } from '../case-work/ReorderDialog';
import { CASE_WORK_UI_TEXTS as W } from '../case-work/texts';
import { ErasurePanel } from '../erasure/ErasurePanel';
import { DevicePanel } from '../materials/DevicePanel';
import { ApprovalPanel } from './ApprovalPanel';
import { caseAbilities } from './caseAbilities';
import { caseDetailApi } from './caseDetailApi';
import { CaseFiles } from './CaseFiles';
import { CaseHeader } from './CaseHeader';
import { CaseTabs } from './CaseTabs';
import { ExternalViewerDialog } from './ExternalViewerDialog';
import { SimulationLinksPanel } from './SimulationLinksPanel';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { TreatmentPlanPanel } from './TreatmentPlanPanel';
import { useCaseCommand } from './useCaseCommand';
import { useCaseRecord } from './useCaseRecord';
import { WorkflowProgress } from './WorkflowProgress';

// The case's invoice line loads with the billing code, only for a case that has shipped.
const CaseInvoice = lazy(() =>
  import('../billing/CaseInvoice').then((module) => ({ default: module.CaseInvoice })),
);

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

/** The case detail screen of spec section 2, with the History tab beyond it. */
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
  const [externalUrl, setExternalUrl] = useState<string | null>(null);
  const [reordering, setReordering] = useState(false);

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
      />
      <CaseLinks item={item} onOpenCase={onOpenCase} />
      {hasShipped(item) ? (
        <Suspense fallback={null}>
          <CaseInvoice caseId={item.id} role={user.role} status={item.status} />
        </Suspense>
      ) : null}
      {abilities.reorder ? (
        <div className="button-row cw-reorder">
          <button type="button" className="button button--secondary" onClick={() => setReordering(true)}>
            <Icon name="plus" />
            {W.orderFollowUp}
          </button>
        </div>
      ) : null}
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
      <PlanVersions item={item} />
      <WorkflowProgress
        item={item}
        canReassign={abilities.reassignRole}
        reassignEnabled={abilities.reassign}
        commands={commands}
      />
      {statusIndex(item.status) >= statusIndex(STATUS_LABELS.ModelPrinting) ? (
        <DevicePanel item={item} user={user} commands={commands} />
      ) : null}
      <div className="cd-layout">
        <div className="cd-layout__main">
          {abilities.saveSimulation ? (
            <SimulationLinksPanel key={item.id} item={item} user={user} commands={commands} />
          ) : null}
          <CaseFiles
            item={item}
            canAnalyze={abilities.analyzePhoto}
            onOpenExternal={setExternalUrl}
            work={{ user, commands, canAdd: abilities.addFiles, canRemove: abilities.removeFile }}
          />
        </div>
        <div className="cd-layout__side">
          <CaseTabs item={item} user={user} canEditPricing={abilities.editPricing} commands={commands} />
        </div>
      </div>
      {externalUrl ? <ExternalViewerDialog url={externalUrl} onClose={() => setExternalUrl(null)} /> : null}
      {reordering ? (
        <ReorderDialog
          item={item}
          busy={commands.busy === 'reorder'}
          error={commands.errors.reorder}
          onSubmit={async (input) => {
            let created: Case | null = null;
            const ok = await commands.run('reorder', async () => {
              created = await caseWorkApi.reorder(item, input);
              cache.upsertCase(created);
              // The original gains the follow-up: the answer is the new case, so read it again.
              return caseDetailApi.get(item.id);
            });
            if (ok && created) onOpenCase?.((created as Case).id);
            return ok;
          }}
          onClose={() => {
            setReordering(false);
            commands.clearError('reorder');
          }}
        />
      ) : null}
    </div>
  );
}
