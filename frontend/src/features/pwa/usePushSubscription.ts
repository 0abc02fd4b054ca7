import { useEffect } from 'react';
import { subscribeToPush } from './pushSubscription';

/** After sign-in, subscribe this browser to push for the user (silently). */
export function usePushSubscription(username: string): void {
  useEffect(() => {
    void subscribeToPush(username);
  }, [username]);
}
