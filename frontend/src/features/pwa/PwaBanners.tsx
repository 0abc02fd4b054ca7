import { useRegisterSW } from 'virtual:pwa-register/react';
import { Icon } from '../../components/Icon';
import { useInstallState } from './installPrompt';
import { PWA_TEXTS } from './texts';

/** 'Update available' with Reload (prompt mode: the new service worker waits) and the install confirmation. */
export function PwaBanners() {
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: true,
    onRegisterError: (error) => console.warn('Service worker registration failed', error),
  });
  const { justInstalled } = useInstallState();

  return (
    <div className="pwa-banners">
      {needRefresh ? (
        <div className="banner banner--info" role="status">
          <Icon name="download" />
          <span>{PWA_TEXTS.updateAvailable}</span>
          <button
            type="button"
            className="button button--primary button--small"
            onClick={() => void updateServiceWorker(true)}
          >
            {PWA_TEXTS.reload}
          </button>
        </div>
      ) : null}
      {justInstalled ? (
        <div className="banner banner--success" role="status">
          <Icon name="check" />
          <span>{PWA_TEXTS.installed}</span>
        </div>
      ) : null}
    </div>
  );
}
