export const ROLES = ['Manager', 'Representative', 'Designer', 'Technician', 'Doctor'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES: readonly Role[] = ['Manager', 'Designer', 'Technician', 'Representative'];

export interface Actor {
  username: string;
  role: Role;
}

/** Accepts any letter case; the role 'admin' found in older data is an alias of Manager. */
export function parseRole(value: unknown): Role | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  if (lower === 'admin') return 'Manager';
  return ROLES.find((role) => role.toLowerCase() === lower);
}

export function isStaff(role: Role): boolean {
  return STAFF_ROLES.includes(role);
}

export const ADMIN_USERNAME = 'admin';
export function isAdminUsername(username: string): boolean {
  return username.trim().toLowerCase() === ADMIN_USERNAME;
}

export function sameUsername(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}
