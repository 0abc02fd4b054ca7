const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The overall progress ring: an SVG arc over a track, the percentage in the middle. */
export function ProgressRing({ percent, label }: { percent: number; label: string }) {
  const clamped = Math.min(100, Math.max(0, percent));
  return (
    <svg className="progress-ring" viewBox="0 0 120 120" role="img" aria-label={label}>
      <circle className="progress-ring__track" cx="60" cy="60" r={RADIUS} />
      <circle
        className="progress-ring__value"
        cx="60"
        cy="60"
        r={RADIUS}
        strokeDasharray={CIRCUMFERENCE}
        strokeDashoffset={CIRCUMFERENCE * (1 - clamped / 100)}
        transform="rotate(-90 60 60)"
      />
      <text className="progress-ring__text" x="60" y="60" textAnchor="middle" dominantBaseline="central">
        {clamped}%
      </text>
    </svg>
  );
}
