import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { enableNotifications, usePushPermission } from './notificationPermission';
import { PWA_TEXTS } from './texts';

/**
 * 'Enable notifications': shown only while the browser can take push and has not been asked yet
 * (permission "default"); the prompt comes from this click, never from loading the page.
 */
export function EnableNotificationsButton({ className, username }: { className: string; username: string }) {
  const permission = usePushPermission();
  const [asking, setAsking] = useState(false);
  if (permission !== 'default') return null;
  return (
    <button
      type="button"
      className={className}
      disabled={asking}
      onClick={() => {
        setAsking(true);
        void enableNotifications(username).finally(() => setAsking(false));
      }}
    >
      <Icon name="bell" />
      {PWA_TEXTS.enableNotifications}
    </button>
  );
}
