import { Icon } from '../../components/Icon';
import { promptInstall, useInstallState } from './installPrompt';
import { PWA_TEXTS } from './texts';

/** 'Install App': hidden once the app runs installed. */
export function InstallButton({ className }: { className: string }) {
  const { standalone } = useInstallState();
  if (standalone) return null;
  return (
    <button type="button" className={className} onClick={() => void promptInstall()}>
      <Icon name="install" />
      {PWA_TEXTS.installApp}
    </button>
  );
}
