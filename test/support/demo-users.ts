import type { ApiClient } from './http';
import type { TestApp } from './test-app';

/** The six users the demo seed signs in with (password "demo"), by the names tests give them. */
export const DEMO_USERNAMES = {
  admin: 'admin',
  rep: 'rep',
  designer: 'designer',
  tech: 'tech',
  drLee: 'dr.lee',
  drPatel: 'dr.patel',
} as const;

export type DemoUsers = { readonly [name in keyof typeof DEMO_USERNAMES]: ApiClient } & {
  /** The same clients by username, as `case-road.ts` takes them (`byUsername`). */
  readonly byUsername: Readonly<Record<string, ApiClient>>;
};

/**
 * Signs in the six demo users of `lab` together; in a `beforeAll`:
 * `({ admin, drLee } = await signInDemoUsers(lab))`.
 */
export async function signInDemoUsers(lab: Pick<TestApp, 'login'>): Promise<DemoUsers> {
  const names = Object.keys(DEMO_USERNAMES) as (keyof typeof DEMO_USERNAMES)[];
  const clients = await Promise.all(names.map((name) => lab.login(DEMO_USERNAMES[name])));
  const users = Object.fromEntries(names.map((name, n) => [name, clients[n]]));
  return {
    ...(users as Record<keyof typeof DEMO_USERNAMES, ApiClient>),
    byUsername: Object.fromEntries(names.map((name, n) => [DEMO_USERNAMES[name], clients[n]])),
  };
}
