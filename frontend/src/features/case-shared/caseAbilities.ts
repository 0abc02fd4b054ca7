import {
  can,
  CASE_STATUSES,
  isStaff,
  decide,
  STATUS_LABELS,
  UNASSIGNED,
  type Actor,
  type Case,
  type CaseCommand,
} from '@alignerflow/domain';

/** Whether the domain's decider would accept the command now (same rules as the server). */
function allowed(item: Case, actor: Actor, command: CaseCommand): boolean {
  return decide(item, command, actor, new Date().toISOString()).ok;
}

/**
 * What the viewer may do with the case, asked of the shared rules (`decide`, `can`). The UI
 * never restates a rule: each panel or button is shown when the decider would accept its command.
 */
export function caseAbilities(item: Case, actor: Actor) {
  return {
    /** 'QR Code': users allowed to act on the case, once it is past Pending Approval. */
    showQr: allowed(item, actor, { type: 'GenerateCaseQr' }),
    /** 'Stage QRs': a Completed case with aligner staging. */
    showStageQrs: item.status === STATUS_LABELS.Completed && item.staging.length > 0,
    /** 'Print ticket': the lab's work ticket, for staff (a Doctor's cases are not on their bench). */
    printTicket: isStaff(actor.role),
    edit: can(actor.role, 'editCase'),
    hold: can(actor.role, 'holdCase'),
    /** New Case Approval panel: Pending Approval, not held, Manager. */
    approve: allowed(item, actor, {
      type: 'ApproveCase',
      doctorUsername: 'doctor',
      doctor: { username: 'doctor', role: 'Doctor' },
    }),
    reject: allowed(item, actor, { type: 'RejectCase', reason: 'reason' }),
    /** Treatment Plan Approval panel: Doctor Approval, not held, the assigned doctor. */
    reviewPlan: allowed(item, actor, { type: 'ApproveTreatmentPlan' }),
    /** 'Prepare for Doctor Approval': Designer or Manager at Digital Planning, not held. */
    saveSimulation: allowed(item, actor, {
      type: 'SaveSimulationLinks',
      simulationVideoUrl: '',
      simulationExternalLink: '',
    }),
    /** Managers reassign stage owners, never while the case is held. */
    reassignRole: can(actor.role, 'reassignStage'),
    reassign: allowed(item, actor, {
      type: 'ReassignStage',
      stage: item.alignerWorkflow[0]?.name ?? CASE_STATUSES[0],
      assignee: UNASSIGNED,
      assigneeIsLabUser: true,
    }),
    editPricing: can(actor.role, 'editPricing'),
    /** 'Add files': anyone who may see the case (staff, its doctor). */
    addFiles: allowed(item, actor, {
      type: 'AddFiles',
      files: [
        {
          name: 'f.pdf',
          type: 'Document',
          size: '',
          url: '/api/files/00000000-0000-0000-0000-000000000000/f.pdf',
        },
      ],
    }),
    /** 'Remove' on a file: a Manager. */
    removeFile:
      item.files.length > 0 &&
      allowed(item, actor, { type: 'RemoveFile', url: item.files[0].url, reason: 'r' }),
    /** 'Order remake / refinement': a Completed case, a Manager or the case's doctor. */
    reorder: allowed(item, actor, {
      type: 'OrderFollowUp',
      newCaseId: 'CA-0000-000',
      input: { kind: 'refinement' },
    }),
    analyzePhoto: can(actor.role, 'analyzePhoto'),
  };
}

export type CaseAbilities = ReturnType<typeof caseAbilities>;
