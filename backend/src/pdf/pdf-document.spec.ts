import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const REGISTER = join(__dirname, '..', '..', '..', 'test', 'support', 'swc-register.cjs');
const APP_MODULE = join(__dirname, '..', 'app.module.ts');
const PDF_DOCUMENT = join(__dirname, 'pdf-document.ts');

describe('pdfDocument', () => {
  it('leaves pdfkit out of a process that loads the whole app, until the first document', () => {
    // A process of its own: Jest's module registry is not Node's require cache.
    const script = `
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/pdfkit/'));
      require(${JSON.stringify(APP_MODULE)});
      const atStart = loaded();
      const doc = require(${JSON.stringify(PDF_DOCUMENT)}).pdfDocument({ size: 'A4' });
      doc.text('x');
      doc.end();
      process.stdout.write(JSON.stringify({ atStart, afterFirst: loaded() }));
    `;
    const stdout = execFileSync(process.execPath, ['-r', REGISTER, '-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    expect(JSON.parse(stdout)).toEqual({ atStart: false, afterFirst: true });
  }, 150_000);
});
