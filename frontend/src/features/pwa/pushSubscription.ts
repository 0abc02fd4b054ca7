import { api } from '../../api/client';

/** The VAPID key (URL-safe base64) as the bytes PushManager.subscribe wants. */
export function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + '='.repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Subscribes this browser to web push for the signed-in user. Returns false (with a console
 * warning, never a user message) when push is unsupported, permission is not granted or a call fails.
 */
export async function subscribeToPush(username: string): Promise<boolean> {
  try {
    if (
      !('serviceWorker' in navigator) ||
      !('PushManager' in window) ||
      typeof Notification === 'undefined'
    ) {
      console.warn('Web push is not supported by this browser.');
      return false;
    }
    if (!window.isSecureContext) {
      console.info('Web push needs HTTPS (or localhost).');
      return false;
    }
    const permission =
      Notification.permission === 'default'
        ? await Notification.requestPermission()
        : Notification.permission;
    if (permission !== 'granted') {
      console.warn('Notification permission not granted.');
      return false;
    }
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
