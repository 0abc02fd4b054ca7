import { inflateSync } from 'node:zlib';

/**
 * Just enough of a PDF reader for Chromium's printouts: the page count, and the text drawn on
 * the pages (through each font's ToUnicode map), so a test can say what a printout holds.
 */
export interface PdfSummary {
  pages: number;
  text: string;
}

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

/** Page objects (not the /Pages tree nodes). */
export function countPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

function readObjects(pdf: Buffer): Map<string, PdfObject> {
  const raw = pdf.toString('latin1');
  const objects = new Map<string, PdfObject>();
  const pattern = /(\d+)\s+0\s+obj\b/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(raw))) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endobj', start);
    if (end < 0) break;
    const body = raw.slice(start, end);
    const streamAt = body.search(/stream\r?\n/);
    const object: PdfObject = { dict: streamAt >= 0 ? body.slice(0, streamAt) : body };
    if (streamAt >= 0) {
      const dataStart = start + streamAt + body.slice(streamAt).indexOf('\n') + 1;
      const length = Number(/\/Length\s+(\d+)(?!\s+0\s+R)/.exec(object.dict)?.[1]);
      const dataEnd = Number.isFinite(length) ? dataStart + length : raw.indexOf('endstream', dataStart);
      const data = pdf.subarray(dataStart, dataEnd);
      object.stream = /\/FlateDecode/.test(object.dict) ? inflateSync(data) : data;
    }
    objects.set(match[1], object);
    pattern.lastIndex = end;
  }
  return objects;
}

/** A ToUnicode CMap as code (hex) → text. */
function readCmap(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  const utf16 = (hex: string) =>
    String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((unit) => parseInt(unit, 16)));
  for (const block of cmap.match(/beginbfchar([\s\S]*?)endbfchar/g) ?? []) {
    for (const [, code, text] of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(code.toLowerCase(), utf16(text));
  }
  for (const block of cmap.match(/beginbfrange([\s\S]*?)endbfrange/g) ?? []) {
    for (const [, lo, hi, text] of block.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g,
    )) {
      const first = parseInt(text, 16);
      for (let code = parseInt(lo, 16); code <= parseInt(hi, 16); code++) {
        map.set(
          code.toString(16).padStart(lo.length, '0'),
          String.fromCharCode(first + code - parseInt(lo, 16)),
        );
      }
    }
  }
  return map;
}

/** The page count and the text of every content stream, runs joined by spaces. */
export function readPdf(pdf: Buffer): PdfSummary {
  const objects = readObjects(pdf);
  // Font resource names (/F4) → the font's ToUnicode map.
  const fonts = new Map<string, Map<string, string>>();
  for (const object of objects.values()) {
    for (const [, name, ref] of object.dict.matchAll(/\/([A-Za-z0-9_.+-]+)\s+(\d+)\s+0\s+R/g)) {
      const font = objects.get(ref);
      const toUnicode =
        font && /\/Type\s*\/Font/.test(font.dict) && /\/ToUnicode\s+(\d+)\s+0\s+R/.exec(font.dict);
      const cmap = toUnicode && objects.get(toUnicode[1])?.stream;
      if (cmap) fonts.set(name, readCmap(cmap.toString('latin1')));
    }
  }
  const runs: string[] = [];
  for (const object of objects.values()) {
    const content = object.stream?.toString('latin1');
    if (!content || !/\bBT\b/.test(content)) continue;
    let cmap: Map<string, string> | undefined;
    for (const [, font, hexRun] of content.matchAll(
      /\/([A-Za-z0-9_.+-]+)\s+[\d.]+\s+Tf|(\[[^\]]*\]\s*TJ|<[0-9a-fA-F]*>\s*Tj)/g,
    )) {
      if (font) {
        cmap = fonts.get(font);
        continue;
      }
      if (!cmap) continue;
      const map = cmap;
      const width = map.size ? [...map.keys()][0].length : 4;
      const text = (hexRun.match(/<([0-9a-fA-F]*)>/g) ?? [])
        .map((hex) =>
          (
            hex
              .slice(1, -1)
              .toLowerCase()
              .match(new RegExp(`.{${width}}`, 'g')) ?? []
          )
            .map((code) => map.get(code) ?? '')
            .join(''),
        )
        .join('');
      runs.push(text);
    }
  }
  return { pages: countPages(pdf), text: runs.join(' ') };
}
