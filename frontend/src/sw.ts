/**
 * AlignerFlow service worker (vite-plugin-pwa, injectManifest): precaches the built app shell,
 * serves it offline, waits for 'SKIP_WAITING' from the 'Update available' banner, shows push
 * notifications and focuses the app when one is clicked. The API is never cached here.
 */
import type { PushMessage } from '@alignerflow/domain';

// Minimal typings of the service worker scope (the project compiles with the DOM library).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification & { data?: { url?: string } };
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

const sw = self as unknown as ServiceWorkerScope;
// The build replaces `self.__WB_MANIFEST` with the list of files to precache.
const manifest = (self as unknown as { __WB_MANIFEST: { url: string; revision: string | null }[] })
  .__WB_MANIFEST;

const DEFAULT_TITLE = 'AlignerFlow';
const DEFAULT_BODY = 'You have a new update';

const scope = sw.registration.scope; // the app base, e.g. https://lab.example/portal/
const apiPrefix = new URL('api/', scope).pathname;
const cacheName = `alignerflow-shell-${hash(manifest.map((entry) => `${entry.url}@${entry.revision ?? ''}`).join('|'))}`;
const indexUrl = new URL('index.html', scope).href;

function hash(text: string): string {
  let value = 0;
  for (let i = 0; i < text.length; i++) value = (Math.imul(31, value) + text.charCodeAt(i)) | 0;
  return (value >>> 0).toString(36);
}

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      // The manifest may list a file twice (manifest icons and the glob); Cache.addAll refuses duplicates.
      .then((cache) => cache.addAll([...new Set(manifest.map((entry) => new URL(entry.url, scope).href))])),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith('alignerflow-shell-') && key !== cacheName)
            .map((key) => caches.delete(key)),
        ),
      )
      .then(() => sw.clients.claim()),
  );
});

// Prompt mode: the new worker waits until the user presses Reload on 'Update available'.
sw.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void sw.skipWaiting();
});

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith(apiPrefix)) return;

  if (request.mode === 'navigate') {
    // Network first for the page, the cached shell when offline.
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(indexUrl, { cacheName })) ?? Response.error()),
    );
    return;
  }
  event.respondWith(caches.match(request, { cacheName }).then((cached) => cached ?? fetch(request)));
});

/** What arrived: the server's PushMessage, read as untrusted (any field may be missing). */
type PushPayload = Partial<PushMessage>;

function readPush(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const parsed = event.data.json();
    return parsed && typeof parsed === 'object' ? (parsed as PushPayload) : {};
  } catch {
    return { body: event.data.text() };
  }
}

sw.addEventListener('push', (event) => {
  const payload = readPush(event);
  const options: NotificationOptions & { vibrate?: number[] } = {
    body: payload.body || DEFAULT_BODY,
    icon: new URL('icons/icon-192.png', scope).href,
    badge: new URL('icons/icon-192.png', scope).href,
    vibrate: [300, 60, 300, 60, 700],
    data: { url: payload.url ?? scope, caseId: payload.caseId },
    tag: payload.caseId ?? undefined,
  };
  event.waitUntil(sw.registration.showNotification(payload.title || DEFAULT_TITLE, options));
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = event.notification.data?.url ?? scope;
  event.waitUntil(
    sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => client.url.startsWith(scope));
      if (open) return open.focus();
      return sw.clients.openWindow(target);
    }),
  );
});
