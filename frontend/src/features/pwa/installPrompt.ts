import { useSyncExternalStore } from 'react';
import { INSTALLED_BANNER_MS, PWA_TEXTS } from './texts';

interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface InstallState {
  /** The browser offered installation; the event is kept to replay it from the button. */
  deferred: BeforeInstallPromptEvent | null;
  justInstalled: boolean;
  standalone: boolean;
}

let state: InstallState = { deferred: null, justInstalled: false, standalone: false };
const listeners = new Set<() => void>();
const set = (patch: Partial<InstallState>) => {
  state = { ...state, ...patch };
  listeners.forEach((listener) => listener());
};

let started = false;

/** Called once at start-up, before React renders: beforeinstallprompt may fire early. */
export function listenForInstallPrompt(): void {
  if (started) return;
  started = true;
  const standalone =
    typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;
  set({ standalone });
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    set({ deferred: event as BeforeInstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => {
    set({ deferred: null, justInstalled: true, standalone: true });
    setTimeout(() => set({ justInstalled: false }), INSTALLED_BANNER_MS);
  });
}

/** Replays the kept prompt, or explains with an alert that it is unavailable. */
export async function promptInstall(): Promise<void> {
  const deferred = state.deferred;
  if (!deferred) {
    window.alert(PWA_TEXTS.installUnavailable);
    return;
  }
  set({ deferred: null });
  await deferred.prompt();
  await deferred.userChoice.catch(() => undefined);
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
