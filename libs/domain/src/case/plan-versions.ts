import type { Case, PlanVersion } from './case.js';
import type { Actor } from '../permissions/roles.js';

/**
 * The treatment plan versions are not events of their own: they are read from the workflow's
 * events, so every case that ever reached Doctor Approval has them, old logs included.
 */

/** Entering Doctor Approval sends the doctor the next version, with the links of that moment. */
export function withSubmittedPlan(state: Case, actor: Actor, at: string): PlanVersion[] {
  const versions = state.planVersions ?? [];
  return [
    ...versions,
    {
      version: versions.length + 1,
      simulationVideoUrl: state.simulationVideoUrl ?? '',
      simulationExternalLink: state.simulationExternalLink ?? '',
      submittedAt: at,
      submittedBy: actor.username,
      outcome: 'pending',
      comment: null,
      decidedAt: null,
      decidedBy: null,
    },
  ];
}

/**
 * The doctor's decision settles the pending version. A case imported at Doctor Approval has no
 * version to settle: its decision stays in the history alone.
 */
export function withDecidedPlan(
  state: Case,
  decision: { outcome: 'approved' } | { outcome: 'changes_requested'; comment: string },
  actor: Actor,
  at: string,
): PlanVersion[] {
  const versions = state.planVersions ?? [];
  let pending = versions.length - 1;
  while (pending >= 0 && versions[pending].outcome !== 'pending') pending--;
  if (pending < 0) return versions;
  const settled: PlanVersion = {
    ...versions[pending],
    outcome: decision.outcome,
    comment: decision.outcome === 'changes_requested' ? decision.comment : null,
    decidedAt: at,
    decidedBy: actor.username,
  };
  return versions.map((version, index) => (index === pending ? settled : version));
}

/** Newest first, as the approval panel lists them. */
export function planVersionsNewestFirst(state: Pick<Case, 'planVersions'>): PlanVersion[] {
  return [...(state.planVersions ?? [])].reverse();
}
