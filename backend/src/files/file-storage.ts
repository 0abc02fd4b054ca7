import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Where uploaded bytes live; swappable for an object store without touching the callers. */
export interface FileStorage {
  /** Moves a finished temporary file into the store under `key`. */
  adopt(tempPath: string, key: string): Promise<void>;
  open(key: string): ReadStream;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
  /** Removes temporary files left by uploads that never finished (a crash mid-upload). */
  removeIncomingOlderThan(ageMs: number): Promise<void>;
  readonly tempDir: string;
}

export const FILE_STORAGE = Symbol('FILE_STORAGE');

/** Files under DATA_DIR/uploads, stored byte for byte (photos are never recompressed). */
export class LocalDiskStorage implements FileStorage {
  readonly tempDir: string;

  constructor(private readonly root: string) {
    this.tempDir = join(root, '.incoming');
  }

  async init(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
  }

  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(resolve(this.root) + '/')) throw new Error(`Storage key escapes the store: ${key}`);
    return path;
  }

  async adopt(tempPath: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    await rename(tempPath, target);
  }

  open(key: string): ReadStream {
    return createReadStream(this.pathOf(key));
  }

  async size(key: string): Promise<number> {
    return (await stat(this.pathOf(key))).size;
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async removeIncomingOlderThan(ageMs: number): Promise<void> {
    const before = Date.now() - ageMs;
    for (const name of await readdir(this.tempDir)) {
      const path = join(this.tempDir, name);
      const modified = await stat(path).then(
        (info) => info.mtimeMs,
        () => Infinity,
      );
      if (modified < before) await rm(path, { force: true });
    }
  }
}
