import { STAGING_TEXTS } from '@alignerflow/domain';

/** Texts of the Aligner Staging screen (spec sections 2 and 9); the shared ones come from the domain. */
export const STAGING_SCREEN_TEXTS = {
  back: 'Back to Portal',
  heading: (patient: string) => `${patient} Aligner Staging`,
  caseId: 'Case ID',
  doctor: 'Doctor',
  overall: 'Overall Treatment Progress',
  stagesDone: (done: number, total: number) => `${done} of ${total} stages completed`,
  percentComplete: (percent: number) => `${percent}% complete`,
  timeInTreatment: 'Time in Treatment',
  totalPlanned: 'Total Planned Time',
  days: (n: number) => `${n} ${Math.abs(n) === 1 ? 'day' : 'days'}`,
  stages: 'Stages',
  stage: (n: number) => `Stage ${n}`,
  remaining: (n: number) => `${n} ${n === 1 ? 'day' : 'days'} remaining`,
  started: 'Started',
  completed: 'Completed',
  stageProgress: (n: number) => `Stage ${n} wear progress`,
  nextUpTag: 'Next up',
  scan: 'Scan Aligner Stage',
  notFound: 'Case not found.',
  actionFailed: 'Stage not changed',
  actionFor: STAGING_TEXTS.actionFor,
  congratulations: STAGING_TEXTS.congratulations,
} as const;
