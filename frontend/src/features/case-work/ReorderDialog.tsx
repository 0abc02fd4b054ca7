import { useId, useState, type FormEvent } from 'react';
import {
  checkReorder,
  REMAKE_REASON_CODES,
  REMAKE_REASON_LABELS,
  REORDER_KINDS,
  type Case,
  type ReorderKind,
} from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { ActionError } from '../case-shared/ActionError';
import { CASE_WORK_UI_TEXTS as T } from '../case-shared/caseWorkTexts';

interface ReorderDialogProps {
  item: Case;
  onSubmit: (input: { kind: ReorderKind; reasonCode: string | null; reason: string }) => Promise<boolean>;
  busy: boolean;
  error?: string;
  onClose: () => void;
}

/** 'Order remake / refinement': kind, reason code and reason, checked by the domain before sending. */
export function ReorderDialog({ item, onSubmit, busy, error, onClose }: ReorderDialogProps) {
  const formId = useId();
  const ids = { kind: useId(), code: useId(), reason: useId() };
  const [kind, setKind] = useState<ReorderKind>('remake');
  const [reasonCode, setReasonCode] = useState<string>('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { kind, reasonCode: reasonCode || null, reason };
    const checked = checkReorder(input);
    setProblem('error' in checked ? checked.error : undefined);
    if ('error' in checked) return;
    if (await onSubmit({ ...input, reason: checked.value.reason })) onClose();
  }

  return (
    <Dialog
      title={T.orderTitle(item.id)}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {T.cancel}
          </button>
          <button type="submit" form={formId} className="button button--primary" disabled={busy}>
            {T.order}
          </button>
        </>
      }
    >
      <form id={formId} className="cw-form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={ids.kind}>
            {T.kind}
          </label>
          <select
            id={ids.kind}
            data-autofocus
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as ReorderKind);
              setProblem(undefined);
            }}
          >
            {REORDER_KINDS.map((value) => (
              <option key={value} value={value}>
                {T.kinds[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.code}>
            {T.reasonCode}
          </label>
          <select
            id={ids.code}
            value={reasonCode}
            onChange={(event) => {
              setReasonCode(event.target.value);
              setProblem(undefined);
            }}
          >
            <option value="">{T.noReasonCode}</option>
            {REMAKE_REASON_CODES.map((code) => (
              <option key={code} value={code}>
                {REMAKE_REASON_LABELS[code]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.reason}>
            {T.reason}
          </label>
          <textarea
            id={ids.reason}
            rows={3}
            value={reason}
            aria-describedby={`${ids.reason}-hint`}
            onChange={(event) => {
              setReason(event.target.value);
              setProblem(undefined);
            }}
          />
          <span id={`${ids.reason}-hint`} className="hint">
            {T.reasonHint}
          </span>
        </div>
        <ActionError message={problem ?? error} />
      </form>
    </Dialog>
  );
}
