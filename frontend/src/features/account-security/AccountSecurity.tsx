import { SessionsList } from './SessionsList';
import { TwoStepSignIn } from './TwoStepSignIn';

/** My Account's security cards: two-step sign-in and the signed-in devices. */
export function AccountSecurity({ username }: { username: string }) {
  return (
    <>
      <TwoStepSignIn username={username} />
      <SessionsList />
    </>
  );
}
