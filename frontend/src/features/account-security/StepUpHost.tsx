import { Suspense, useEffect, useState } from 'react';
import { StepUpCancelled, onStepUpRequired } from '../../api/client';
import { ReauthDialog } from './lazyScreens';
import { SECURITY_TEXTS } from './texts';

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Answers the API client's step-up requests with the re-authentication dialog: the waiting call
 * is repeated after a proof, and fails with a clear message when the dialog is cancelled.
 */
export function StepUpHost() {
  const [pending, setPending] = useState<Pending | null>(null);

  useEffect(
    () => onStepUpRequired(() => new Promise<void>((resolve, reject) => setPending({ resolve, reject }))),
    [],
  );

  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <ReauthDialog
        onConfirmed={() => {
          setPending(null);
          pending.resolve();
        }}
        onCancel={() => {
          setPending(null);
          pending.reject(new StepUpCancelled(SECURITY_TEXTS.reauthCancelled));
        }}
      />
    </Suspense>
  );
}
