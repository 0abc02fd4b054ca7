import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { cache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { isAbort, uploadErrorText, uploadFile } from '../../api/uploadFile';
import { caseWorkApi } from '../case-shared/caseWorkApi';
import { CASE_WORK_UI_TEXTS as T } from '../case-shared/caseWorkTexts';
import { ADDABLE_FILES, uploadKindOf } from './uploadKind';
import { errorMessage } from '../../api/errorMessage';

interface Pending {
  key: number;
  name: string;
  progress: number;
  phase: 'uploading' | 'attaching' | 'failed';
  error?: string;
  abort?: () => void;
}

/**
 * 'Add files' of the Case Files panel: files dropped or picked upload at once, each with its own
 * progress bar and Cancel (XMLHttpRequest reports progress and aborts), then join the case one
 * by one; a refused file keeps the server's text beside it until dismissed.
 */
export function AddFiles({ caseId }: { caseId: string }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);
  const [pending, setPending] = useState<Pending[]>([]);
  const [dragging, setDragging] = useState(false);
  const inFlight = useRef(new Map<number, () => void>());

  // Leaving the case stops its uploads: an upload nobody attaches is swept by the server.
  useEffect(() => {
    const uploads = inFlight.current;
    return () => uploads.forEach((abort) => abort());
  }, []);

  const update = (key: number, change: Partial<Pending>) =>
    setPending((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  const drop = (key: number) => setPending((list) => list.filter((item) => item.key !== key));

  function start(file: File) {
    const key = nextKey.current++;
    const kind = uploadKindOf(file);
    if (!kind) {
      setPending((list) => [
        ...list,
        { key, name: file.name, progress: 0, phase: 'failed', error: T.unsupported },
      ]);
      return;
    }
    const handle = uploadFile(file, kind, (progress) => update(key, { progress }));
    inFlight.current.set(key, handle.abort);
    setPending((list) => [
      ...list,
      { key, name: file.name, progress: 0, phase: 'uploading', abort: handle.abort },
    ]);
    handle.promise
      .then(async (uploaded) => {
        inFlight.current.delete(key);
        update(key, { phase: 'attaching', progress: 100, abort: undefined });
        try {
          cache.upsertCase(await caseWorkApi.addFiles(caseId, [uploaded]));
          drop(key);
        } catch (error) {
          update(key, { phase: 'failed', error: errorMessage(error) });
        }
      })
      .catch((error: unknown) => {
        inFlight.current.delete(key);
        if (isAbort(error)) drop(key);
        else update(key, { phase: 'failed', error: uploadErrorText(error), abort: undefined });
      });
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    Array.from(event.dataTransfer.files).forEach(start);
  }

  return (
    <div className="cw-add">
      <div
        className={`cw-drop${dragging ? ' cw-drop--active' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Icon name="upload" size={20} />
        <span className="cw-drop__hint">{T.dropHint}</span>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => input.current?.click()}
        >
          <Icon name="plus" size={14} />
          {T.addFiles}
        </button>
        <input
          id={inputId}
          ref={input}
          className="cw-drop__input"
          type="file"
          multiple
          accept={ADDABLE_FILES}
          aria-label={T.addFilesLabel}
          onChange={(event) => {
            Array.from(event.target.files ?? []).forEach(start);
            event.target.value = '';
          }}
        />
      </div>
      {pending.length ? (
        <ul className="cw-uploads">
          {pending.map((item) => (
            <li key={item.key} className={`cw-upload cw-upload--${item.phase}`}>
              <span className="cw-upload__name" title={item.name}>
                {item.name}
              </span>
              {item.phase === 'failed' ? (
                <>
                  <span className="form-error cw-upload__error" role="alert">
                    {item.error}
                  </span>
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    aria-label={T.dismissFailed(item.name)}
                    onClick={() => drop(item.key)}
                  >
                    {T.dismiss}
                  </button>
                </>
              ) : (
                <>
                  <progress
                    className="cw-upload__bar"
                    max={100}
                    value={item.progress}
                    aria-label={T.uploadProgress(item.name)}
                  />
                  <span className="small muted cw-upload__state" role="status">
                    {item.phase === 'attaching' ? T.attaching : T.uploading(item.progress)}
                  </span>
                  {item.abort ? (
                    <button
                      type="button"
                      className="button button--small button--ghost"
                      aria-label={T.cancelUpload(item.name)}
                      onClick={item.abort}
                    >
                      {T.cancel}
                    </button>
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
