import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const REGISTER = join(__dirname, '..', '..', '..', 'test', 'support', 'swc-register.cjs');
const LOGGER = join(__dirname, 'logger.ts');

/**
 * The lines a process writes through the root logger to a stdout that is a pipe (the buffered
 * path), logging `count` lines of about 120 bytes, then ending as `end` says.
 */
function linesOf(count: number, end: 'naturally' | 'exit' | 'throw'): { n: number }[] {
  const script = `
    const { createRootLogger } = require(${JSON.stringify(LOGGER)});
    const log = createRootLogger('info', { isTTY: false, write: () => undefined });
    for (let n = 0; n < ${count}; n++) log.info({ n, pad: 'x'.repeat(40) }, 'line');
    ${end === 'exit' ? 'process.exit(3);' : end === 'throw' ? "setTimeout(() => { throw new Error('boom'); }, 5);" : ''}
  `;
  let stdout: string;
  try {
    stdout = execFileSync(process.execPath, ['-r', REGISTER, '-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    stdout = (error as { stdout: string }).stdout;
  }
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('the root logger on a pipe', () => {
  const numbers = (count: number) => Array.from({ length: count }, (_, n) => n);

  it.each([
    ['by itself', 'naturally'],
    ['by process.exit', 'exit'],
    ['by an uncaught exception', 'throw'],
  ] as const)(
    'writes every line once, in order, when the process ends %s',
    (_how, end) => {
      expect(linesOf(5, end).map(({ n }) => n)).toEqual(numbers(5));
    },
    30_000,
  );

  it('writes every line once, in order, across many buffers', () => {
    // About 120 bytes a line: 2,345 of them fill the 8 KB buffer some thirty times.
    const lines = linesOf(2_345, 'exit');
    expect(lines.map(({ n }) => n)).toEqual(numbers(2_345));
    expect(lines[0]).toMatchObject({ level: 30, msg: 'line', service: 'alignerflow' });
  }, 30_000);
});
