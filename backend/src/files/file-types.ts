import { open } from 'node:fs/promises';

export const UPLOAD_LIMITS = {
  STL: 200 * 1024 * 1024,
  Photo: 25 * 1024 * 1024,
  Document: 25 * 1024 * 1024,
} as const;
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

/** How many first bytes of an upload are enough to tell an image from anything else. */
export const SNIFF_BYTES = 512;

function imageMime(head: Buffer): string | undefined {
  return IMAGE_SIGNATURES.find((signature) => signature.test(head))?.mime;
}

/** A PDF starts with "%PDF-" (readers allow a little junk before it; uploads need not). */
function isPdf(head: Buffer): boolean {
  return head.subarray(0, 5).toString('latin1') === '%PDF-';
}

export function isUploadKind(value: unknown): value is UploadKind {
  return value === 'STL' || value === 'Photo' || value === 'Document';
}

/** Why an upload is refused before it is written in full. */
export type UploadRefusal = { reason: 'unknownKind' } | { reason: 'wrongContent'; kind: UploadKind };

/**
 * How many bytes an upload may write, settled from its first bytes (at most SNIFF_BYTES, held in
 * memory until then), its name and the `type` field when that came before the file part.
 *
 * Why this rule: the `type` field may arrive after the file, so the limit cannot wait for it, and
 * writing up to the largest limit (200 MB) before knowing would let any "photo" cost eight times
 * its own. The content narrows the kind enough: an image can only pass as a Photo (the STL slots
 * refuse it), and anything else only as an STL, which also needs a `.stl` name. So the first bytes
 * leave at most one kind the file could be accepted as, and its limit applies from then on. When no
 * kind remains (not an image, not named .stl) the file will be refused whatever `type` follows,
 * so it may write no more than the smallest limit while the rest of the form is read for the
 * answer's text. When `type` came first and contradicts the content, the answer is known at once.
 */
export function uploadCap(
  head: Buffer,
  name: string,
  declared: string | undefined,
): { limit: number; kind: UploadKind } | UploadRefusal {
  if (declared !== undefined && !isUploadKind(declared)) return { reason: 'unknownKind' };
  const image = !!imageMime(head);
  const possible: UploadKind | undefined = image
    ? 'Photo'
    : isPdf(head)
      ? 'Document'
      : isStlName(name)
        ? 'STL'
        : undefined;
  if (declared && possible !== declared) return { reason: 'wrongContent', kind: declared };
  // 'Photo': the smaller of the two limits.
  const kind = possible ?? 'Photo';
  return { limit: UPLOAD_LIMITS[kind], kind };
}

export function isStlName(name: string): boolean {
  return name.toLowerCase().endsWith('.stl');
}

export function isPdfName(name: string): boolean {
  return name.toLowerCase().endsWith('.pdf');
}

/**
 * What the bytes are, judged by their content rather than by the name or the browser's claim:
 * an image by its signature, an STL as ASCII ("solid …") or binary (84-byte header + 50 per facet).
 */
export async function sniffFile(path: string, size: number): Promise<{ mime: string; isStl: boolean }> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, SNIFF_BYTES));
    await handle.read(head, 0, head.length, 0);
    const image = imageMime(head);
    if (image) return { mime: image, isStl: false };
    if (isPdf(head)) return { mime: 'application/pdf', isStl: false };
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
