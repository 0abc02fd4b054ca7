import { lazy, Suspense } from 'react';
import { ACCESS_LOG_TEXTS, can, hasShipped, STATUS_LABELS, statusIndex } from '@alignerflow/domain';
import { CaseAccessTab } from '../features/access-log/CaseAccessTab';
import type { CaseScreenParts } from '../features/case-shared/caseScreenParts';
import { AddFiles } from '../features/case-work/AddFiles';
import { PlanVersions } from '../features/case-work/PlanVersions';
import { ReorderAction } from '../features/case-work/ReorderAction';
import { DevicePanel } from '../features/materials/DevicePanel';
import { StageMaterialsDialog } from '../features/materials/StageMaterialsDialog';
import { PrintTicketButton } from '../features/ticket/PrintTicketButton';

// The case's invoice line loads with the billing code, only for a case that has shipped.
const CaseInvoice = lazy(() =>
  import('../features/billing/CaseInvoice').then((module) => ({ default: module.CaseInvoice })),
);

/**
 * What the other features add to the case screen (and the lot picker My Queue opens too). The
 * case detail renders each part where it goes and knows none of these features by name.
 */
export const CASE_SCREEN_PARTS: CaseScreenParts = {
  headerActions: ({ item, abilities }) => (abilities.printTicket ? <PrintTicketButton item={item} /> : null),
  belowHeader: (view) => (
    <>
      {hasShipped(view.item) ? (
        <Suspense fallback={null}>
          <CaseInvoice caseId={view.item.id} role={view.user.role} status={view.item.status} />
        </Suspense>
      ) : null}
      {view.abilities.reorder ? <ReorderAction {...view} /> : null}
    </>
  ),
  belowPlan: ({ item }) => <PlanVersions item={item} />,
  belowWorkflow: ({ item, user, commands }) =>
    statusIndex(item.status) >= statusIndex(STATUS_LABELS.ModelPrinting) ? (
      <DevicePanel item={item} user={user} commands={commands} />
    ) : null,
  addFiles: ({ item, abilities }) => (abilities.addFiles ? <AddFiles caseId={item.id} /> : null),
  tabs: [
    // Managers only: who read the case (api.md, "Patient data").
    {
      key: 'access',
      label: ACCESS_LOG_TEXTS.tab,
      shownTo: (role) => can(role, 'viewAccessLog'),
      render: ({ item }) => <CaseAccessTab item={item} />,
    },
  ],
  StageMaterials: StageMaterialsDialog,
};
