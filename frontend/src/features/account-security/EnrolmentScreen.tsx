import { useCallback } from 'react';
import type { MfaStatus, User } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { SECURITY_TEXTS } from './texts';
import { TwoStepSignIn } from './TwoStepSignIn';

interface EnrolmentScreenProps {
  user: User;
  /** Once a second factor is active. */
  onEnrolled: () => void;
  onSignOut: () => void;
}

/** What a user whose role must use two-step sign-in sees until they have set it up. */
export function EnrolmentScreen({ user, onEnrolled, onSignOut }: EnrolmentScreenProps) {
  const onStatus = useCallback(
    (status: MfaStatus) => {
      if (status.totp || status.passkeys > 0) onEnrolled();
    },
    [onEnrolled],
  );
  return (
    <main className="enrol" aria-labelledby="enrol-title">
      <div className="enrol__panel">
        <div className="login__brand" aria-hidden="true">
          <Icon name="shield" size={36} />
        </div>
        <h1 id="enrol-title" className="login__title">
          {SECURITY_TEXTS.enrolTitle}
        </h1>
        <p className="login__subtitle">{SECURITY_TEXTS.enrolHint}</p>
        <TwoStepSignIn username={user.username} onStatus={onStatus} />
        <button type="button" className="button button--ghost button--block" onClick={onSignOut}>
          <Icon name="logout" />
          {SECURITY_TEXTS.signOut}
        </button>
      </div>
    </main>
  );
}
