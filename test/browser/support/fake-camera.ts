import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { QR_OPTIONS } from '@alignerflow/domain';

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing one QR
 * code: the modules drawn by the `qrcode` package (the same library and options as the app),
 * written as uncompressed YUV4MPEG2 (4:2:0, full-range luma, neutral chroma), so no ffmpeg is needed.
 */
export function writeQrY4m(
  file: string,
  payload: string,
  { width = 640, height = 480, frames = 10 }: { width?: number; height?: number; frames?: number } = {},
): void {
  const { modules } = QRCode.create(payload, QR_OPTIONS);
  const quiet = 4;
  const cells = modules.size + quiet * 2;
  const scale = Math.floor((Math.min(width, height) * 0.9) / cells);
  const side = cells * scale;
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);

  const luma = Buffer.alloc(width * height, 0x60); // a grey background around the white quiet zone
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const row = Math.floor(y / scale) - quiet;
      const column = Math.floor(x / scale) - quiet;
      const inside = row >= 0 && column >= 0 && row < modules.size && column < modules.size;
      const dark = inside && modules.get(row, column);
      luma[(top + y) * width + left + x] = dark ? 0x10 : 0xf0;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 0x80);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}

/** Chromium flags that feed `file` to getUserMedia as the camera and accept the permission prompt. */
export function fakeCameraArgs(file: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${file}`,
  ];
}
