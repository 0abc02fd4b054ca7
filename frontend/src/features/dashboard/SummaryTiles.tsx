import type { DashboardFigures } from '@alignerflow/domain';
import { Icon, type IconName } from '../../components/Icon';
import { DASHBOARD_TEXTS } from './texts';

const TILES: { key: keyof typeof DASHBOARD_TEXTS.tiles; icon: IconName; colour: string }[] = [
  { key: 'totalActive', icon: 'folder', colour: 'blue' },
  { key: 'pendingManagerApproval', icon: 'clock', colour: 'red' },
  { key: 'awaitingDoctorApproval', icon: 'doctor', colour: 'yellow' },
  { key: 'overdue', icon: 'alert', colour: 'orange' },
];

/** The four summary tiles, figures from the dashboard projection. */
export function SummaryTiles({ figures }: { figures: DashboardFigures | null }) {
  return (
    <ul className="tiles">
      {TILES.map(({ key, icon, colour }) => (
        <li key={key} className={`tile tile--${colour}`}>
          <span className="tile__icon" aria-hidden="true">
            <Icon name={icon} size={22} />
          </span>
          <span className="tile__text">
            <span className="tile__title">{DASHBOARD_TEXTS.tiles[key]}</span>
            <span className="tile__value">{figures ? figures[key] : '—'}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
