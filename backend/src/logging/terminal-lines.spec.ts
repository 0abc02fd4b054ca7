import { transformFileSync } from '@swc/core';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRootLogger } from './logger.js';
import { chooseLogFormat, formatLine } from './terminal-lines.js';

const ROOT = path.resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line no-control-regex
const stripColors = (text: string) => text.replace(/\u001b\[\d+m/g, '');
const AT = '2026-03-04T05:06:07.089Z';
/** AT on this machine's clock, as the lines show it. */
const atHere = `${new Date(AT).toTimeString().slice(0, 8)}.089`;

describe('log format', () => {
  it('is readable lines on a terminal and JSON lines anywhere else', () => {
    expect(chooseLogFormat({ isTTY: true })).toBe('terminal');
    expect(chooseLogFormat({ isTTY: false })).toBe('json');
    expect(chooseLogFormat({})).toBe('json');
  });

  it('turns an entry into time, level, context, message and the other fields', () => {
    const json = JSON.stringify({
      level: 30,
      time: AT,
      service: 'alignerflow',
      pid: 42,
      context: 'HTTP',
      correlationId: 'abc',
      method: 'GET',
      status: 200,
      user: undefined,
      msg: 'request',
    });
    expect(formatLine(json, false)).toBe(
      `${atHere} INFO  [HTTP] request correlationId=abc method=GET status=200\n`,
    );
  });

  it("puts an error's stack on the lines below, and colors by level only when asked", () => {
    const json = JSON.stringify({
      level: 50,
      time: AT,
      msg: 'boom',
      trace: 'Error: boom\n    at x',
    });
    const plain = formatLine(json, false);
    expect(plain).toBe(`${atHere} ERROR boom\nError: boom\n    at x\n`);
    const colored = formatLine(json, true);
    expect(colored).toContain('\u001b[31mERROR\u001b[39m');
    expect(stripColors(colored)).toBe(plain);
  });

  it('passes a line that is not JSON on unchanged', () => {
    expect(formatLine('plain words', false)).toBe('plain words\n');
  });

  it('the root logger writes terminal lines, unbuffered, to a terminal', () => {
    const written: string[] = [];
    const terminal = { isTTY: true, hasColors: () => false, write: (text: string) => written.push(text) };
    createRootLogger('info', terminal).child({ context: 'Seed' }).info('Created the admin user.');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[Seed\] Created the admin user\.\n$/);
  });
});

describe('a process logging to its stdout', () => {
  let dir: string;
  let script: string;

  beforeAll(() => {
    // The logger as the app runs it: compiled to CommonJS, in a process of its own.
    dir = mkdtempSync(path.join(os.tmpdir(), 'af-log-format-'));
    for (const name of ['logger', 'terminal-lines']) {
      const { code } = transformFileSync(path.join(__dirname, `${name}.ts`), {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      writeFileSync(path.join(dir, `${name}.js`), code);
    }
    script = path.join(dir, 'run.js');
    writeFileSync(
      script,
      `require('./logger.js').createRootLogger('info').child({ context: 'AlignerFlow' })
         .info({ port: 3000 }, 'AlignerFlow is listening');`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_PATH: path.join(ROOT, 'node_modules'),
    TERM: 'xterm-256color',
  };
  // Each would override what the terminal says about colors (Node takes CI=true for 2 colors).
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.CI;

  it('writes JSON lines into a pipe', () => {
    const output = execFileSync(process.execPath, [script], { env, encoding: 'utf8' });
    expect(JSON.parse(output)).toMatchObject({
      level: 30,
      context: 'AlignerFlow',
      port: 3000,
      msg: 'AlignerFlow is listening',
    });
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)(
    'writes readable, colored lines into a terminal (a pseudo-terminal by `script`)',
    () => {
      const command = `'${process.execPath}' '${script}'`;
      const output = execFileSync('script', ['-qec', command, '/dev/null'], { env, encoding: 'utf8' });
      expect(output).toContain('\u001b[32mINFO');
      expect(stripColors(output).trim()).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[AlignerFlow\] AlignerFlow is listening port=3000$/,
      );
    },
  );
});
