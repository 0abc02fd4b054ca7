import { Icon } from '../components/Icon';
import { APP_TEXTS } from './texts';

interface MobileBottomNavProps {
  canCreate: boolean;
  /** Managers: the Reports screen. */
  onReports?: () => void;
  /** The Billing (staff) or Invoices (Doctor) screen. */
  billing?: { label: string; open: () => void };
  onHome: () => void;
  onNew: () => void;
  onScan: () => void;
  onLogout: () => void;
}

/** Bottom navigation on small screens: Home, New, Scan, Reports (Managers), Logout. */
export function MobileBottomNav({
  canCreate,
  onReports,
  billing,
  onHome,
  onNew,
  onScan,
  onLogout,
}: MobileBottomNavProps) {
  return (
    <nav className="bottom-nav" aria-label="Mobile navigation">
      <button type="button" onClick={onHome}>
        <Icon name="home" />
        <span>{APP_TEXTS.home}</span>
      </button>
      {canCreate ? (
        <button type="button" onClick={onNew}>
          <Icon name="plus" />
          <span>{APP_TEXTS.newShort}</span>
        </button>
      ) : null}
      <button type="button" onClick={onScan}>
        <Icon name="qr" />
        <span>{APP_TEXTS.scan}</span>
      </button>
      {onReports ? (
        <button type="button" onClick={onReports}>
          <Icon name="chart" />
          <span>{APP_TEXTS.reports}</span>
        </button>
      ) : null}
      {billing ? (
        <button type="button" onClick={billing.open}>
          <Icon name="folder" />
          <span>{billing.label}</span>
        </button>
      ) : null}
      <button type="button" onClick={onLogout}>
        <Icon name="logout" />
        <span>{APP_TEXTS.logout}</span>
      </button>
    </nav>
  );
}
