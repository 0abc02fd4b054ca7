/** The Lab Dashboard's answer (api.md, Cases — reads). */

/** Time spent in one status by the cases in it now (the Lab Dashboard's time in stage). */
export interface StageTime {
  count: number;
  averageHours: number;
  maxHours: number;
}

/** `GET /dashboard`: the Lab Dashboard's figures, counted from the read model. */
export interface DashboardFigures {
  totalActive: number;
  pendingManagerApproval: number;
  awaitingDoctorApproval: number;
  overdue: number;
  completedToday: number;
  byStatus?: Record<string, number>;
  timeInStage?: Record<string, StageTime>;
}
