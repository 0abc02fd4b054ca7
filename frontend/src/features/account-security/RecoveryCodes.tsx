import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon';
import { SECURITY_TEXTS } from './texts';

interface RecoveryCodesProps {
  username: string;
  codes: string[];
  onDone: () => void;
}

function saveTextFile(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The recovery codes, shown once, right after the authenticator was turned on. */
export function RecoveryCodes({ username, codes, onDone }: RecoveryCodesProps) {
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that was focused is gone: the codes take the focus, so they are read out next.
  useEffect(() => heading.current?.focus(), []);
  const fileText = `${SECURITY_TEXTS.recoveryFileHeader(username)}\n\n${codes.join('\n')}\n`;

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setStatus({ text: SECURITY_TEXTS.codesCopied, error: false });
    } catch {
      setStatus({ text: SECURITY_TEXTS.copyFailed, error: true });
    }
  }

  return (
    <section className="security-codes" aria-labelledby="recovery-codes-title">
      <h4 id="recovery-codes-title" ref={heading} tabIndex={-1}>
        {SECURITY_TEXTS.recoveryCodes}
      </h4>
      <p className="small">{SECURITY_TEXTS.recoveryCodesHint}</p>
      <ol className="security-codes__list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="security-actions">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => saveTextFile(fileText, SECURITY_TEXTS.recoveryFileName)}
        >
          <Icon name="download" />
          {SECURITY_TEXTS.downloadCodes}
        </button>
        <button type="button" className="button button--ghost" onClick={() => void copy()}>
          <Icon name="copy" />
          {SECURITY_TEXTS.copyCodes}
        </button>
        <button type="button" className="button button--primary" onClick={onDone}>
          {SECURITY_TEXTS.codesSaved}
        </button>
      </div>
      <p className={status?.error ? 'form-error' : 'small'} role="status" aria-live="polite">
        {status?.text ?? ''}
      </p>
    </section>
  );
}
