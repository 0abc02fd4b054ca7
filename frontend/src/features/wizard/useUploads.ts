import { useCallback, useEffect, useRef, useState } from 'react';
import {
  isAbort,
  uploadErrorText,
  uploadFile,
  type UploadedFile,
  type UploadHandle,
} from '../../api/uploadFile';
import { ALL_SLOTS, type SlotDefinition, type SlotKey } from './uploadSlots';

export interface SlotState {
  fileName: string;
  progress: number;
  status: 'uploading' | 'done' | 'error';
  result?: UploadedFile;
  error?: string;
}

type Slots = Partial<Record<SlotKey, SlotState>>;

/** Each chosen file uploads at once, with its progress; Submit waits for the ones still running. */
export function useUploads() {
  const [slots, setSlots] = useState<Slots>({});
  const handles = useRef(new Map<SlotKey, UploadHandle>());

  useEffect(() => {
    const running = handles.current;
    return () => running.forEach((handle) => handle.abort());
  }, []);

  const patch = useCallback((key: SlotKey, handle: UploadHandle, change: Partial<SlotState>) => {
    // A replaced or removed upload must not overwrite its slot.
    if (handles.current.get(key) !== handle) return;
    setSlots((current) => {
      const slot = current[key];
      return slot ? { ...current, [key]: { ...slot, ...change } } : current;
    });
  }, []);

  const choose = useCallback(
    (slot: SlotDefinition, file: File) => {
      handles.current.get(slot.key)?.abort();
      const ref: { handle?: UploadHandle } = {};
      const handle = uploadFile(file, slot.kind, (progress) => {
        if (ref.handle) patch(slot.key, ref.handle, { progress });
      });
      ref.handle = handle;
      handles.current.set(slot.key, handle);
      setSlots((current) => ({
        ...current,
        [slot.key]: { fileName: file.name, progress: 0, status: 'uploading' },
      }));
      handle.promise.then(
        (result) => patch(slot.key, handle, { status: 'done', progress: 100, result }),
        (error: unknown) => {
          if (!isAbort(error)) patch(slot.key, handle, { status: 'error', error: uploadErrorText(error) });
        },
      );
    },
    [patch],
  );

  const remove = useCallback((key: SlotKey) => {
    handles.current.get(key)?.abort();
    handles.current.delete(key);
    setSlots((current) => {
      const next = { ...current };
      delete next[key];
      return next;
    });
  }, []);

  /** The uploaded files in slot order, once every running upload has finished; rejects on a failure. */
  const waitForAll = useCallback(async (): Promise<UploadedFile[]> => {
    const keys = ALL_SLOTS.map((slot) => slot.key).filter((key) => handles.current.has(key));
    return Promise.all(keys.map((key) => handles.current.get(key)!.promise));
  }, []);

  const error = ALL_SLOTS.map((slot) => slots[slot.key]).find((slot) => slot?.status === 'error')?.error;
  const done = ALL_SLOTS.flatMap((slot) => {
    const result = slots[slot.key]?.result;
    return result ? [result] : [];
  });
  return { slots, choose, remove, waitForAll, error: error ?? null, done };
}
