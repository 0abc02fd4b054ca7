import type { CaseStatus } from './status.js';

/** One stage's completion as the device record keeps it (Case.stageRecords). */
export interface StageRecord {
  status: CaseStatus;
  completedAt: string;
  by: string | null;
  /** The material lots used in the stage, as registered. */
  lots: string[];
  machine: string | null;
}
