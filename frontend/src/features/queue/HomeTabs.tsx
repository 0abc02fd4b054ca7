import type { Role } from '@alignerflow/domain';
import { homeTabs, type HomeScreen } from './homeScreens';
import { QUEUE_TEXTS as T } from './texts';

const LABELS: Record<HomeScreen, string> = { queue: T.queueTab, dashboard: T.dashboardTab };

/** Switches the staff's home between My Queue and the Lab Dashboard. */
export function HomeTabs({
  role,
  current,
  onChange,
}: {
  role: Role;
  current: HomeScreen;
  onChange: (screen: HomeScreen) => void;
}) {
  return (
    <div className="home-tabs" role="tablist" aria-label={T.tabsLabel}>
      {homeTabs(role).map((screen) => (
        <button
          key={screen}
          type="button"
          role="tab"
          aria-selected={current === screen}
          className={`home-tabs__tab${current === screen ? ' is-active' : ''}`}
          onClick={() => onChange(screen)}
        >
          {LABELS[screen]}
        </button>
      ))}
    </div>
  );
}
