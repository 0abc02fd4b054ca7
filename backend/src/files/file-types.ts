import { open } from 'node:fs/promises';

export const UPLOAD_LIMITS = { STL: 200 * 1024 * 1024, Photo: 25 * 1024 * 1024 } as const;
export type UploadKind = keyof typeof UPLOAD_LIMITS;

const IMAGE_SIGNATURES: { mime: string; test: (head: Buffer) => boolean }[] = [
  { mime: 'image/jpeg', test: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  {
    mime: 'image/png',
    test: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { mime: 'image/gif', test: (h) => h.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    mime: 'image/webp',
    test: (h) =>
      h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  },
  {
    mime: 'image/heic',
    test: (h) =>
      h.subarray(4, 8).toString('latin1') === 'ftyp' &&
      /hei[cx]|mif1/.test(h.subarray(8, 12).toString('latin1')),
  },
];

/**
 * What the bytes are, judged by their content rather than by the name or the browser's claim:
 * an image by its signature, an STL as ASCII ("solid …") or binary (84-byte header + 50 per facet).
 */
export async function sniffFile(path: string, size: number): Promise<{ mime: string; isStl: boolean }> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, 512));
    await handle.read(head, 0, head.length, 0);
    const image = IMAGE_SIGNATURES.find((signature) => signature.test(head));
    if (image) return { mime: image.mime, isStl: false };
    const binaryStl = size >= 84 && head.length >= 84 && 84 + head.readUInt32LE(80) * 50 === size;
    const asciiStl = /^\s*solid[\s\S]*facet/i.test(head.toString('latin1'));
    return {
      mime: binaryStl || asciiStl ? 'model/stl' : 'application/octet-stream',
      isStl: binaryStl || asciiStl,
    };
  } finally {
    await handle.close();
  }
}
