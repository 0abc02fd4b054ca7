import { api } from '../../api/client';

/** The VAPID key (URL-safe base64) as the bytes PushManager.subscribe wants. */
export function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + '='.repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Why this browser cannot take web push, or null when it can. */
export function pushUnavailable(): string | null {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || typeof Notification === 'undefined')
    return 'Web push is not supported by this browser.';
  if (!window.isSecureContext) return 'Web push needs HTTPS (or localhost).';
  return null;
}

/**
 * Subscribes this browser to web push for the signed-in user when notifications are already
 * permitted; it never asks for the permission (browsers and Lighthouse treat a prompt nobody asked
 * for as abuse: it is asked from the 'Enable notifications' button). Returns false (with a console
 * note, never a user message) when push is unavailable, not permitted or a call fails.
 */
export async function subscribeToPush(username: string): Promise<boolean> {
  try {
    const unavailable = pushUnavailable();
    if (unavailable) {
      console.info(unavailable);
      return false;
    }
    if (Notification.permission !== 'granted') return false;
    const registration = await navigator.serviceWorker.ready;
    const { publicKey } = await api.vapidPublicKey();
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: urlBase64ToUint8Array(publicKey),
      }));
    await api.pushSubscribe(subscription.toJSON(), username);
    return true;
  } catch (error) {
    console.warn('Push subscription failed', error);
    return false;
  }
}
