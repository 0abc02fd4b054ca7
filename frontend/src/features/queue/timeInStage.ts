import { formatHours } from '../../components/format';

/** How long the case has been in its current status, as the dashboard writes durations. */
export function timeInStage(statusEnteredAt: string | null | undefined, now: Date = new Date()): string {
  const entered = statusEnteredAt ? Date.parse(statusEnteredAt) : Number.NaN;
  if (Number.isNaN(entered)) return formatHours(Number.NaN);
  return formatHours(Math.max(0, (now.getTime() - entered) / 3_600_000));
}
