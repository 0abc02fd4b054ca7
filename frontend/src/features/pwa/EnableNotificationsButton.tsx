import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { enableNotifications, usePushPermission } from './notificationPermission';
import { PWA_TEXTS } from './texts';

/**
 * 'Enable notifications': shown only while the browser can take push and has not been asked yet
 * (permission "default"); the prompt comes from this click, never from loading the page.
 */
export function EnableNotificationsButton({
  className,
  username,
  iconOnly = false,
}: {
  className: string;
  username: string;
  /** The header bar has no room for another labelled button: the bell alone, named for screen readers. */
  iconOnly?: boolean;
}) {
  const permission = usePushPermission();
  const [asking, setAsking] = useState(false);
  if (permission !== 'default') return null;
  return (
    <button
      type="button"
      className={className}
      disabled={asking}
      aria-label={iconOnly ? PWA_TEXTS.enableNotifications : undefined}
      title={iconOnly ? PWA_TEXTS.enableNotifications : undefined}
      onClick={() => {
        setAsking(true);
        void enableNotifications(username).finally(() => setAsking(false));
      }}
    >
      <Icon name="bell" />
      {iconOnly ? null : PWA_TEXTS.enableNotifications}
    </button>
  );
}
