import { useSyncExternalStore } from 'react';
import { pushUnavailable, subscribeToPush } from './pushSubscription';

/** What the header offers: the button only while the browser can still ask. */
export type PushPermission = 'unavailable' | NotificationPermission;

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function read(): PushPermission {
  return pushUnavailable() ? 'unavailable' : Notification.permission;
}

let watching = false;
/** A permission changed in the browser's site settings shows or hides the button without a reload. */
function watchBrowserSettings(): void {
  if (watching) return;
  watching = true;
  navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => status.addEventListener('change', notify))
    .catch(() => undefined);
}

export function usePushPermission(): PushPermission {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    if (read() !== 'unavailable') watchBrowserSettings();
    return () => listeners.delete(listener);
  }, read);
}

/**
 * Asks for the notification permission — call it only from a click, the one moment the browser
 * (and the user) expect the prompt — and subscribes this browser when it is granted.
 */
export async function enableNotifications(username: string): Promise<boolean> {
  if (pushUnavailable()) return false;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return false;
  } catch (error) {
    console.warn('Notification permission request failed', error);
    return false;
  } finally {
    notify();
  }
  return subscribeToPush(username);
}
