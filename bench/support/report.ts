import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * One `npm run bench` run collects every figure here (bench-setup empties the file, each
 * benchmark records its figures, bench-teardown writes the table into docs/performance.md).
 */
export const RESULTS_FILE = join(__dirname, '..', '..', 'tmp', 'bench-results.jsonl');
const DOC = join(__dirname, '..', '..', 'docs', 'performance.md');
const BEGIN = '<!-- bench:begin (written by `npm run bench`; edit the text outside these markers) -->';
const END = '<!-- bench:end -->';

export interface Figure {
  /** Stable key: the row of the table this figure fills (later records of the same key win). */
  id: string;
  /** What was measured, in words ("Commands over HTTP, 32 clients"). */
  figure: string;
  /** The result as shown ("3,310/s, p50 8.1 ms, p99 21 ms"). */
  measured: string;
  /** The target in the words ("≥ 0.25"), or "—" for a reference figure. */
  target: string;
  /** Whether the target is met; undefined for reference figures. */
  met?: boolean;
  /** The file that measured it. */
  bench: string;
}

export function recordFigure(figure: Figure): void {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  appendFileSync(RESULTS_FILE, JSON.stringify({ ...figure, load: +loadavg()[0].toFixed(1) }) + '\n');
  process.stdout.write(`[bench] ${figure.figure}: ${figure.measured} (target ${figure.target})\n`);
}

export function resetResults(): void {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, '');
}

/** Writes the collected figures between the markers of docs/performance.md. */
export function writePerformanceDoc(startedAt: Date, seconds: number): void {
  if (!existsSync(RESULTS_FILE)) return;
  const byId = new Map<string, Figure & { load: number }>();
  for (const line of readFileSync(RESULTS_FILE, 'utf8').split('\n').filter(Boolean)) {
    const figure = JSON.parse(line);
    byId.set(figure.id, figure);
  }
  if (byId.size === 0) return;
  const rows = [...byId.values()].map(
    (f) =>
      `| ${f.figure} | ${f.measured} | ${f.target} | ${f.met === undefined ? '' : f.met ? 'met' : '**missed**'} | ${f.load} | \`${f.bench}\` |`,
  );
  const table = [
    BEGIN,
    `Run of ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: \`npm run bench\`, ` +
      `${Math.round(seconds)} s in all; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}.`,
    '',
    '| Figure | Measured | Target | | Load avg | Benchmark |',
    '|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Performance\n\n';
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + table + doc.slice(end + END.length)
      : doc.trimEnd() + '\n\n' + table + '\n';
  writeFileSync(DOC, next);
}
