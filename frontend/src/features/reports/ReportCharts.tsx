import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { StageFigures, WeekFigures } from '@alignerflow/domain';
import { REPORTS_SCREEN_TEXTS as T } from './texts';

/**
 * The Reports screen's charts (recharts), loaded lazily: the library is most of this chunk and
 * only managers open the screen. Colours are the theme's primary, success and warning. Legends
 * keep the order of the bars (itemSorter null: recharts sorts them by name otherwise).
 */
const PRIMARY = '#0d6e8f';
const SUCCESS = '#2e7d32';
const WARNING = '#b45309';
const TICK = { fontSize: 11, fill: 'currentColor' };

/** Short labels for the axis: "Trimming & Polishing" does not fit beside a bar at 375 px. */
const SHORT_STATUS: Record<string, string> = {
  'Pending Approval': 'Approval',
  'Scan Received': 'Scan',
  'Digital Planning': 'Planning',
  'Doctor Approval': 'Doctor',
  'Model Printing': 'Printing',
  Thermoforming: 'Thermo',
  'Trimming & Polishing': 'Trimming',
  'Quality Check': 'QC',
  'Packaging & Labeling': 'Packaging',
  'Delivery to Doctor': 'Delivery',
};

const shortDay = (day: string) => day.slice(5); // MM-DD: the year is in the range above

export function WeeksChart({ weeks }: { weeks: WeekFigures[] }) {
  return (
    <div className="report-chart" data-chart="weeks">
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={weeks} margin={{ top: 8, right: 8, left: -20, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="weekStart" tickFormatter={shortDay} tick={TICK} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} tick={TICK} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          <Bar dataKey="completed" name={T.series.completed} fill={PRIMARY} isAnimationActive={false} />
          <Bar dataKey="onTime" name={T.series.onTime} fill={SUCCESS} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function StagesChart({ stages }: { stages: StageFigures[] }) {
  const data = stages.map((stage) => ({ ...stage, label: SHORT_STATUS[stage.status] ?? stage.status }));
  return (
    <div className="report-chart" data-chart="stages">
      <ResponsiveContainer width="100%" height={Math.max(200, 34 * data.length + 60)}>
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 12, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tick={TICK} unit=" h" />
          <YAxis type="category" dataKey="label" width={72} tick={TICK} interval={0} />
          <Tooltip labelFormatter={(_, payload) => payload?.[0]?.payload?.status ?? ''} />
          <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
          <Bar dataKey="averageHours" name={T.series.average} fill={PRIMARY} isAnimationActive={false} />
          <Bar dataKey="p90Hours" name={T.series.p90} fill={WARNING} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function CountChart({
  rows,
  kind,
}: {
  rows: { name: string; value: number; onTime?: number }[];
  kind: 'remakes' | 'doctors' | 'clinics';
}) {
  return (
    <div className="report-chart" data-chart={kind}>
      <ResponsiveContainer width="100%" height={Math.max(160, 34 * rows.length + 60)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 12, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={TICK} />
          <YAxis
            type="category"
            dataKey="name"
            width={112}
            tick={TICK}
            interval={0}
            tickFormatter={(name: string) => (name.length > 18 ? `${name.slice(0, 17)}…` : name)}
          />
          <Tooltip />
          {kind !== 'remakes' ? <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} /> : null}
          <Bar
            dataKey="value"
            name={kind === 'remakes' ? T.series.remakes : T.series.completed}
            fill={kind === 'remakes' ? WARNING : PRIMARY}
            isAnimationActive={false}
          />
          {kind !== 'remakes' ? (
            <Bar dataKey="onTime" name={T.series.onTime} fill={SUCCESS} isAnimationActive={false} />
          ) : null}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
