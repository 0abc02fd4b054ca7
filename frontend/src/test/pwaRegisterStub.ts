/** Test stand-in for 'virtual:pwa-register/react' (the real module exists only in vite builds). */
export function useRegisterSW() {
  const noop = () => undefined;
  return {
    needRefresh: [false, noop] as const,
    offlineReady: [false, noop] as const,
    updateServiceWorker: async () => undefined,
  };
}
