import { STATUS_LABELS, type CaseSummary } from '@alignerflow/domain';

/**
 * Spec section 2: 'Awaiting Your Approval' holds the cases at Doctor Approval; every other case
 * (pending manager approval included) goes to 'Active & Completed Cases', newest createdDate first.
 */
export function doctorSections(cases: CaseSummary[]): { awaiting: CaseSummary[]; others: CaseSummary[] } {
  const awaiting = cases.filter((item) => item.status === STATUS_LABELS.DoctorApproval);
  const active = cases.filter(
    (item) => item.status !== STATUS_LABELS.DoctorApproval && item.status !== STATUS_LABELS.PendingApproval,
  );
  const pending = cases.filter((item) => item.status === STATUS_LABELS.PendingApproval);
  const others = [...active, ...pending].sort(
    (a, b) => new Date(b.createdDate).getTime() - new Date(a.createdDate).getTime(),
  );
  return { awaiting, others };
}
