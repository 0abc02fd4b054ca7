import { parseRole, type Role } from '@alignerflow/domain';
import type { Fail } from './env-values.js';

/** api.md Accounts: who must have a second factor, and where passkeys belong. */
export interface AccountsConfig {
  /** MFA_REQUIRED_ROLES: a user of these roles without a second factor may only set one up. */
  mfaRequiredRoles: Role[];
  /** The WebAuthn relying party: the host name of PUBLIC_URL, and its origin. */
  webauthn: { rpId: string; rpName: string; origin: string };
}

/**
 * MFA_REQUIRED_ROLES is comma-separated roles, empty for none; unset means Manager outside demo
 * mode (the role that can read and restore everything) and none in demo mode, whose users sign
 * in with the published password "demo" anyway.
 */
export function loadAccountsConfig(
  app: { port: number; basePath: string; demoData: boolean },
  env: NodeJS.ProcessEnv,
  fail: Fail,
): AccountsConfig {
  const raw = env.MFA_REQUIRED_ROLES;
  const names = raw === undefined ? (app.demoData ? [] : ['Manager']) : raw.split(',');
  const mfaRequiredRoles: Role[] = [];
  for (const name of names.map((entry) => entry.trim()).filter(Boolean)) {
    const role = parseRole(name);
    if (!role) fail('MFA_REQUIRED_ROLES', `must list roles separated by commas, got "${name}"`);
    if (!mfaRequiredRoles.includes(role)) mfaRequiredRoles.push(role);
  }
  const publicUrl = env.PUBLIC_URL?.trim() || `http://localhost:${app.port}${app.basePath}`;
  let url: URL | undefined;
  try {
    url = new URL(publicUrl);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol))
    fail('PUBLIC_URL', `must be an http(s) URL without a fragment, got "${publicUrl}"`);
  return { mfaRequiredRoles, webauthn: { rpId: url.hostname, rpName: 'AlignerFlow', origin: url.origin } };
}
