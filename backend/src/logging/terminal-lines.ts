import type { DestinationStream } from 'pino';

/** JSON lines for log collectors; readable lines for a person watching a terminal. */
export type LogFormat = 'json' | 'terminal';

/** Terminal lines when stdout is a terminal, JSON lines otherwise (a pipe, a file, a container log). */
export function chooseLogFormat(stdout: { isTTY?: boolean }): LogFormat {
  return stdout.isTTY ? 'terminal' : 'json';
}

const LEVELS: Record<number, { name: string; color: number }> = {
  10: { name: 'TRACE', color: 90 },
  20: { name: 'DEBUG', color: 36 },
  30: { name: 'INFO', color: 32 },
  40: { name: 'WARN', color: 33 },
  50: { name: 'ERROR', color: 31 },
  60: { name: 'FATAL', color: 35 },
};

/** Fields every line carries that a person reading one process's terminal does not need. */
const OMITTED = new Set(['level', 'time', 'msg', 'context', 'service', 'pid', 'hostname', 'trace', 'err']);

/**
 * One pino JSON line as `12:00:01.234 INFO  [Context] message key=value …`, with the stack
 * of an error on the lines below. A line that is not JSON is passed on as it is.
 */
export function formatLine(json: string, colors: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: number, text: string) => (colors ? `\u001b[${code}m${text}\u001b[39m` : text);
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level), color: 39 };
  const time = localTime(
    typeof entry.time === 'string' || typeof entry.time === 'number' ? entry.time : Date.now(),
  );
  const context = typeof entry.context === 'string' ? `${paint(33, `[${entry.context}]`)} ` : '';
  const fields = Object.entries(entry)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => paint(90, `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`));
  const stack = [entry.trace, (entry.err as { stack?: unknown } | undefined)?.stack].filter(
    (text): text is string => typeof text === 'string' && text.length > 0,
  );
  const head = [
    paint(90, time),
    paint(level.color, level.name.padEnd(5)),
    `${context}${String(entry.msg ?? '')}`,
    ...fields,
  ].join(' ');
  return `${[head, ...stack.map((text) => paint(level.color, text))].join('\n')}\n`;
}

/** `HH:MM:SS.mmm` in the machine's time zone: the person reading is looking at their own clock. */
function localTime(at: string | number): string {
  const date = new Date(at);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** A pino destination that writes each entry to `out` as a terminal line, at once (no buffer). */
export function terminalLines(out: { write(text: string): unknown }, colors: boolean): DestinationStream {
  return { write: (json: string) => void out.write(formatLine(json.trimEnd(), colors)) };
}
