import { lazy, Suspense, useState } from 'react';
import { can, isStaff, sameUsername, STATUS_LABELS, type Case, type User } from '@alignerflow/domain';
import { useCache } from '../api/cache';
import { CaseDetail } from '../features/case-detail/CaseDetail';
import { EditCaseDialog } from '../features/case-detail/EditCaseDialog';
import { ManagerDashboard } from '../features/dashboard/ManagerDashboard';
import { DoctorDashboard } from '../features/doctor/DoctorDashboard';
import { OfflineBanner } from '../features/live/OfflineBanner';
import { defaultHome, type HomeScreen } from '../features/queue/homeScreens';
import { HomeTabs } from '../features/queue/HomeTabs';
import { MyQueue } from '../features/queue/MyQueue';
import { CaseQrDialog, StageQrSheet } from '../features/qr';
import { useLiveSync } from '../features/live/useLiveSync';
import { usePushSubscription } from '../features/pwa/usePushSubscription';
import { ScanDialog } from '../features/scan/ScanDialog';
import { SettingsDrawer } from '../features/settings/SettingsDrawer';
import { AlignerStagingScreen } from '../features/staging/AlignerStagingScreen';
import { NewCaseWizard } from '../features/wizard/NewCaseWizard';
import type { SettingsSection } from '../features/settings/texts';
import { Header } from './Header';
import { SETTINGS_PARTS } from './settingsParts';
import { APP_TEXTS } from './texts';
import { MobileBottomNav } from './MobileBottomNav';
import { useCaseFragment } from './useCaseFragment';
import { useScanFragment } from './useScanFragment';
import { useTheme } from './useTheme';
import { billingScreenLabel } from '../features/billing/billingScreenLabel';

// Managers only, with its charts: loaded when opened, not with the app.
const MaterialsScreen = lazy(() =>
  import('../features/materials/MaterialsScreen').then((module) => ({ default: module.MaterialsScreen })),
);
const ReportsScreen = lazy(() =>
  import('../features/reports/ReportsScreen').then((module) => ({ default: module.ReportsScreen })),
);

// Billing is its own screen per role, loaded when opened (features/billing/BillingEntry.tsx).
const BillingEntry = lazy(() =>
  import('../features/billing/BillingEntry').then((module) => ({ default: module.BillingEntry })),
);

interface ShellProps {
  user: User;
  onLogout: () => void;
  onSessionEnded: () => void;
}

type OpenDialog =
  | { kind: 'new' }
  | { kind: 'edit'; caseId: string }
  | { kind: 'caseQr'; case: Case }
  | { kind: 'stageQrs'; case: Case }
  | null;

/** The signed-in app: header, the role's dashboard or the selected case, dialogs and the settings panel. */
export function Shell({ user: sessionUser, onLogout, onSessionEnded }: ShellProps) {
  // users_refresh also refreshes the current user (role, sound preference).
  const listed = useCache((state) =>
    state.users?.find((user) => sameUsername(user.username, sessionUser.username)),
  );
  const user = listed ?? sessionUser;
  const { theme, toggle } = useTheme();
  const scanner = useScanFragment();
  const [selectedCaseId, setSelectedCase] = useState<string | null>(null);
  const [screen, setScreen] = useState<'reports' | 'materials' | 'billing' | null>(null);
  const reportsOpen = screen === 'reports';
  const canViewReports = can(user.role, 'viewReports');
  const canSeeMaterials = isStaff(user.role);
  const billingLabel = billingScreenLabel(user.role);
  // Opening a case (from a list, a scan, a new case) leaves the Reports, Materials and Billing screens.
  const setSelectedCaseId = (caseId: string | null) => {
    setScreen(null);
    setSelectedCase(caseId);
  };
  const openReports = () => {
    setSelectedCase(null);
    setScreen('reports');
  };
  const openMaterials = () => {
    setSelectedCase(null);
    setScreen('materials');
  };
  const billing = billingLabel
    ? {
        label: billingLabel,
        open: () => {
          setSelectedCase(null);
          setScreen('billing');
        },
      }
    : undefined;
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [settings, setSettings] = useState<SettingsSection | null>(null);
  const [home, setHome] = useState<HomeScreen | null>(() => defaultHome(user.role));
  // A Doctor viewing a Completed case with staging sees the aligner staging screen (spec section 2).
  const showStaging = useCache((state) => {
    const selected = selectedCaseId ? state.cases.find((item) => item.id === selectedCaseId) : undefined;
    return (
      user.role === 'Doctor' && selected?.status === STATUS_LABELS.Completed && selected.staging.length > 0
    );
  });

  useCaseFragment(setSelectedCaseId);
  useLiveSync(user, onSessionEnded);
  usePushSubscription(user.username);

  const goHome = () => setSelectedCaseId(null);
  const openNew = () => setDialog({ kind: 'new' });
  const editSelected = () => selectedCaseId && setDialog({ kind: 'edit', caseId: selectedCaseId });

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header
        user={user}
        caseSelected={selectedCaseId !== null}
        theme={theme}
        onToggleTheme={toggle}
        onHome={goHome}
        onEditCase={editSelected}
        onNewCase={openNew}
        onReports={canViewReports ? openReports : undefined}
        onMaterials={canSeeMaterials ? openMaterials : undefined}
        billing={billing}
        onLogout={onLogout}
        onOpenAccount={() => setSettings('account')}
      />
      <OfflineBanner />
      <main id="main" className="shell__main" tabIndex={-1}>
        {selectedCaseId && showStaging ? (
          <AlignerStagingScreen
            caseId={selectedCaseId}
            user={user}
            onBack={goHome}
            onScan={scanner.openScanner}
          />
        ) : screen === 'billing' && billing ? (
          <Suspense fallback={<p className="muted">{APP_TEXTS.loadingScreen}</p>}>
            <BillingEntry user={user} />
          </Suspense>
        ) : reportsOpen && canViewReports ? (
          <Suspense fallback={<p className="muted">{APP_TEXTS.loadingScreen}</p>}>
            <ReportsScreen />
          </Suspense>
        ) : screen === 'materials' && canSeeMaterials ? (
          <Suspense fallback={<p className="muted">{APP_TEXTS.loadingScreen}</p>}>
            <MaterialsScreen user={user} />
          </Suspense>
        ) : selectedCaseId ? (
          <CaseDetail
            caseId={selectedCaseId}
            user={user}
            onBack={goHome}
            onEdit={(caseId) => setDialog({ kind: 'edit', caseId })}
            onShowCaseQr={(item) => setDialog({ kind: 'caseQr', case: item })}
            onShowStageQrs={(item) => setDialog({ kind: 'stageQrs', case: item })}
            onOpenCase={setSelectedCaseId}
          />
        ) : user.role === 'Doctor' ? (
          <DoctorDashboard
            user={user}
            onOpenCase={setSelectedCaseId}
            onNewCase={openNew}
            onScan={scanner.openScanner}
          />
        ) : (
          <>
            {home ? <HomeTabs role={user.role} current={home} onChange={setHome} /> : null}
            {home === 'queue' ? (
              <MyQueue user={user} onOpenCase={setSelectedCaseId} onScan={scanner.openScanner} />
            ) : (
              <ManagerDashboard
                user={user}
                onOpenCase={setSelectedCaseId}
                onEditCase={(caseId) => setDialog({ kind: 'edit', caseId })}
                onOpenSettings={setSettings}
                onScan={scanner.openScanner}
              />
            )}
          </>
        )}
      </main>
      <MobileBottomNav
        canCreate={can(user.role, 'createCase')}
        onReports={canViewReports ? openReports : undefined}
        billing={billing}
        onHome={goHome}
        onNew={openNew}
        onScan={scanner.openScanner}
        onLogout={onLogout}
      />

      {scanner.open ? <ScanDialog onClose={scanner.closeScanner} onOpenCase={setSelectedCaseId} /> : null}
      {dialog?.kind === 'new' ? (
        <NewCaseWizard
          user={user}
          onClose={() => setDialog(null)}
          onCreated={(created) => {
            setDialog(null);
            setSelectedCaseId(created.id);
          }}
        />
      ) : null}
      {dialog?.kind === 'edit' ? (
        <EditCaseDialog caseId={dialog.caseId} user={user} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'caseQr' ? <CaseQrDialog case={dialog.case} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'stageQrs' ? (
        <StageQrSheet case={dialog.case} onClose={() => setDialog(null)} />
      ) : null}
      {settings && (settings === 'account' || can(user.role, 'manageUsers')) ? (
        <SettingsDrawer
          role={user.role}
          user={user}
          initialSection={settings}
          onClose={() => setSettings(null)}
          onSignedOut={onSessionEnded}
          parts={SETTINGS_PARTS}
        />
      ) : null}
    </div>
  );
}
