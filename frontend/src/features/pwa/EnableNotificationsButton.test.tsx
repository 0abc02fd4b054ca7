import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { fakeServer } from '../../test/fakeServer';
import { EnableNotificationsButton } from './EnableNotificationsButton';
import { PWA_TEXTS } from './texts';
import { usePushSubscription } from './usePushSubscription';

/**
 * The browser's push APIs (jsdom has none), standing in for Chromium's: a Notification whose
 * permission and prompt answer the test chooses, a service worker whose push manager subscribes.
 */
function browserWithPush(permission: NotificationPermission, answer: NotificationPermission = 'granted') {
  const requestPermission = vi.fn(async () => {
    FakeNotification.permission = answer;
    return answer;
  });
  class FakeNotification {
    static permission: NotificationPermission = permission;
    static requestPermission = requestPermission;
  }
  const subscription = {
    toJSON: () => ({ endpoint: 'https://push.example.com/1', keys: { p256dh: 'p', auth: 'a' } }),
  };
  const subscribe = vi.fn(async () => subscription);
  vi.stubGlobal('Notification', FakeNotification);
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({ pushManager: { getSubscription: async () => null, subscribe } }) },
  });
  const server = fakeServer({
    'GET /push/vapid-public-key': {
      body: {
        publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      },
    },
    'POST /push/subscribe': { status: 201 },
  });
  return { requestPermission, subscribe, server };
}

afterEach(() => {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

const button = () => screen.queryByRole('button', { name: PWA_TEXTS.enableNotifications });

function SignedIn() {
  usePushSubscription('tech');
  return <EnableNotificationsButton className="button" username="tech" />;
}

describe('Enable notifications', () => {
  it('loading the signed-in app never asks for the permission; the button is offered instead', async () => {
    const { requestPermission, server } = browserWithPush('default');
    render(<SignedIn />);
    expect(button()).not.toBeNull();
    await act(async () => {
      await Promise.resolve();
    });
    expect(requestPermission).not.toHaveBeenCalled();
    expect(server.calls('POST', '/push/subscribe')).toHaveLength(0);
  });

  it('asks on the click, subscribes this browser for the user once granted, then hides', async () => {
    const { requestPermission, subscribe, server } = browserWithPush('default', 'granted');
    render(<SignedIn />);
    fireEvent.click(button()!);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(server.calls('POST', '/push/subscribe')).toHaveLength(1));
    expect(server.calls('POST', '/push/subscribe')[0].body).toMatchObject({
      endpoint: 'https://push.example.com/1',
      username: 'tech',
    });
    expect(subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    expect(button()).toBeNull();
  });

  it('a refusal hides the button and subscribes nothing', async () => {
    const { requestPermission, server } = browserWithPush('default', 'denied');
    render(<SignedIn />);
    fireEvent.click(button()!);
    await waitFor(() => expect(button()).toBeNull());
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(server.calls('POST', '/push/subscribe')).toHaveLength(0);
  });

  it('already granted: no button, and the app keeps the subscription without asking', async () => {
    const { requestPermission, server } = browserWithPush('granted');
    render(<SignedIn />);
    expect(button()).toBeNull();
    await waitFor(() => expect(server.calls('POST', '/push/subscribe')).toHaveLength(1));
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it('already denied: no button, nothing asked or sent', async () => {
    const { requestPermission, server } = browserWithPush('denied');
    render(<SignedIn />);
    expect(button()).toBeNull();
    await act(async () => {
      await Promise.resolve();
    });
    expect(requestPermission).not.toHaveBeenCalled();
    expect(server.requests).toHaveLength(0);
  });

  it('icon-only in the header bar: the bell, named for screen readers and on hover', () => {
    browserWithPush('default');
    render(<EnableNotificationsButton className="icon-button" username="tech" iconOnly />);
    expect(button()!.textContent).toBe('');
    expect(button()!.getAttribute('title')).toBe(PWA_TEXTS.enableNotifications);
  });

  it('no button where push cannot work: no Push API, or not a secure context', () => {
    browserWithPush('default');
    vi.stubGlobal('isSecureContext', false);
    const { unmount } = render(<EnableNotificationsButton className="button" username="tech" />);
    expect(button()).toBeNull();
    unmount();
    vi.stubGlobal('isSecureContext', true);
    delete (window as { PushManager?: unknown }).PushManager;
    render(<EnableNotificationsButton className="button" username="tech" />);
    expect(button()).toBeNull();
  });
});
