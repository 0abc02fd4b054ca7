/** `GET /reports/{table}.csv` (api.md, Reach and insight); the summary is ReportSummary (reports/). */

/** The Reports screen's downloadable tables: cases.csv, and the summary's other tables. */
export type ReportTable = 'cases' | 'stages' | 'weeks' | 'doctors' | 'clinics' | 'remakes';
