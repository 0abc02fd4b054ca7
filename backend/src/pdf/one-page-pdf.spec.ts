import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnePagePdf, parsePageSize } from './one-page-pdf';

function read(bytes: Buffer): { text: string; info: string } {
  const dir = mkdtempSync(join(tmpdir(), 'af-pdf-spec-'));
  try {
    const file = join(dir, 'x.pdf');
    writeFileSync(file, bytes);
    return {
      text: execFileSync('pdftotext', ['-layout', file, '-']).toString(),
      info: execFileSync('pdfinfo', [file]).toString(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('OnePagePdf', () => {
  it('keeps a long table on one page and says how many rows it left out', async () => {
    const pdf = new OnePagePdf('Letter', 'Long');
    pdf.text('Title', { size: 18, bold: true });
    const rows = Array.from({ length: 300 }, (_, index) => [`row ${index + 1}`, String(index)]);
    pdf.table([{ width: 0.5 }, { width: 0.5, align: 'right' }], ['Name', 'Value'], rows, 30);
    pdf.text('The end', { bold: true });
    const { text, info } = read(await pdf.finish());
    expect(info).toMatch(/^Pages:\s+1$/m);
    expect(info).toMatch(/Page size:.*letter/);
    expect(text).toContain('row 1 ');
    expect(text).not.toContain('row 300');
    expect(text).toMatch(/… and \d+ more/);
    expect(text).toContain('The end');
  });

  it('clips a paragraph longer than the page instead of starting a second one', async () => {
    const pdf = new OnePagePdf('A4', 'Words');
    pdf.text('word '.repeat(20000));
    const { info } = read(await pdf.finish());
    expect(info).toMatch(/^Pages:\s+1$/m);
    expect(info).toMatch(/Page size:.*A4/);
  });

  it('reads the page size of a request: Letter when asked, else A4', () => {
    expect(parsePageSize('letter')).toBe('Letter');
    expect(parsePageSize('Letter')).toBe('Letter');
    expect(parsePageSize('A4')).toBe('A4');
    expect(parsePageSize(undefined)).toBe('A4');
    expect(parsePageSize(['x'])).toBe('A4');
  });
});
