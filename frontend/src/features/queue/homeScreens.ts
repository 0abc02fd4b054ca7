import { can, type Role } from '@alignerflow/domain';

export type HomeScreen = 'queue' | 'dashboard';

/**
 * The staff's home: My Queue for Technicians, Designers and Representatives, whose day is the
 * cases at their stages; the Lab Dashboard for Managers, with My Queue a tab away. Doctors have
 * neither (their own dashboard).
 */
export function defaultHome(role: Role): HomeScreen | null {
  if (!can(role, 'viewWorkQueue')) return null;
  return role === 'Manager' ? 'dashboard' : 'queue';
}

/** The tabs in the order the role sees them: its home first. */
export function homeTabs(role: Role): HomeScreen[] {
  const home = defaultHome(role);
  if (!home) return [];
  return home === 'queue' ? ['queue', 'dashboard'] : ['dashboard', 'queue'];
}
