// Writes the PWA icons (solid PNGs with an "AF" mark) into public/icons/. Run: node scripts/make-icons.mjs
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const BACKGROUND = [13, 110, 143]; // teal-blue brand colour
const FOREGROUND = [255, 255, 255];

// 5 x 7 block glyphs.
const GLYPHS = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  F: ['11111', '10000', '10000', '11110', '10000', '10000', '10000'],
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function isMark(x, y, size) {
  // Two glyphs of 5 columns with a 1-column gap, inside the central 60 % (maskable safe zone).
  const columns = 11;
  const rows = 7;
  const cell = Math.floor((size * 0.5) / columns);
  const left = Math.floor((size - cell * columns) / 2);
  const top = Math.floor((size - cell * rows) / 2);
  const col = Math.floor((x - left) / cell);
  const row = Math.floor((y - top) / cell);
  if (x < left || y < top || col >= columns || row >= rows) return false;
  if (col === 5) return false;
  const glyph = col < 5 ? GLYPHS.A : GLYPHS.F;
  return glyph[row][col < 5 ? col : col - 6] === '1';
}

function png(size) {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    const rowStart = y * (size * 3 + 1);
    raw[rowStart] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const colour = isMark(x, y, size) ? FOREGROUND : BACKGROUND;
      raw.set(colour, rowStart + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const outDir = new URL('../public/icons/', import.meta.url);
mkdirSync(outDir, { recursive: true });
for (const size of [192, 512]) {
  writeFileSync(new URL(`icon-${size}.png`, outDir), png(size));
}
writeFileSync(new URL('apple-touch-icon.png', outDir), png(180));
console.log('icons written');
