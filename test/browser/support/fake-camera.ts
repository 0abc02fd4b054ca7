import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { QR_OPTIONS } from '@alignerflow/domain';

/**
 * Where the code sits in each frame, as a phone held by hand shows it: its side as a share of the
 * picture's height, and how far it is off the centre (in pixels). The scanner's decoder (ZXing in
 * html5-qrcode) cannot read some pictures of a code at all, whichever the number of tries: which
 * ones depends on the code and on where it sits. Case ids are random, so a film of one still
 * picture left an unlucky case's stage code unread for good; frames that differ give the decoder
 * other pictures of the same code, as a real camera does.
 */
const POSES = [
  { size: 0.9, dx: 0, dy: 0 },
  { size: 0.8, dx: -24, dy: 10 },
  { size: 0.7, dx: 30, dy: -18 },
  { size: 0.85, dx: 9, dy: 5 },
  { size: 0.75, dx: -13, dy: -21 },
  { size: 0.65, dx: 40, dy: 25 },
  { size: 0.88, dx: -5, dy: -3 },
  { size: 0.72, dx: -35, dy: 14 },
];

/** One frame's luma: a grey background, the white quiet zone and the code's modules at `pose`. */
function lumaOf(
  modules: { size: number; get(row: number, column: number): number | boolean },
  width: number,
  height: number,
  pose: (typeof POSES)[number],
): Buffer {
  const quiet = 4;
  const cells = modules.size + quiet * 2;
  const scale = Math.floor((Math.min(width, height) * pose.size) / cells);
  const side = cells * scale;
  const clamp = (value: number, room: number) => Math.max(0, Math.min(room, value));
  const left = clamp(Math.floor((width - side) / 2) + pose.dx, width - side);
  const top = clamp(Math.floor((height - side) / 2) + pose.dy, height - side);

  const luma = Buffer.alloc(width * height, 0x60);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const row = Math.floor(y / scale) - quiet;
      const column = Math.floor(x / scale) - quiet;
      const inside = row >= 0 && column >= 0 && row < modules.size && column < modules.size;
      const dark = inside && modules.get(row, column);
      luma[(top + y) * width + left + x] = dark ? 0x10 : 0xf0;
    }
  }
  return luma;
}

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing one QR
 * code, one frame per pose (Chromium plays it in a loop): the modules drawn by the `qrcode`
 * package (the same library and options as the app), written as uncompressed YUV4MPEG2 (4:2:0,
 * full-range luma, neutral chroma), so no ffmpeg is needed.
 */
export function writeQrY4m(
  file: string,
  payload: string,
  { width = 640, height = 480 }: { width?: number; height?: number } = {},
): void {
  const { modules } = QRCode.create(payload, QR_OPTIONS);
  const chroma = Buffer.alloc((width / 2) * (height / 2), 0x80);
  const frames = POSES.map((pose) =>
    Buffer.concat([Buffer.from('FRAME\n'), lumaOf(modules, width, height, pose), chroma, chroma]),
  );
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, ...frames]));
}

/** Chromium flags that feed `file` to getUserMedia as the camera and accept the permission prompt. */
export function fakeCameraArgs(file: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${file}`,
  ];
}
