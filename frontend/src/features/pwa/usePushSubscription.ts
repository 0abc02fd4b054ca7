import { useEffect } from 'react';
import { subscribeToPush } from './pushSubscription';

/**
 * After sign-in, keep this browser subscribed for the user when notifications are already
 * permitted; asking for the permission is left to the 'Enable notifications' button.
 */
export function usePushSubscription(username: string): void {
  useEffect(() => {
    void subscribeToPush(username);
  }, [username]);
}
