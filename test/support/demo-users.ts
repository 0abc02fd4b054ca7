import { DataSource } from 'typeorm';
import { ApiClient } from './http';
import { APP_START_TIMEOUT_MS, startTestApp, type TestApp } from './test-app';

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

/** A file's own app and its six demo users, as `useDemoUsers` answers them. */
export type FileDemoUsers = DemoUsers & {
  /** The file's app; read it inside tests and hooks. */
  readonly lab: TestApp;
};

/**
 * Registers the hooks that start the file's own app and sign in its six demo users (before the
 * file's own `beforeAll`s that come after this call) and close the app after its tests. The
 * clients can be taken apart at the top of the file (`const { admin, drLee } = useDemoUsers()`):
 * each one stands for the client its `beforeAll` signs in, so tests keep one name per user
 * instead of a `let` filled in later. `lab` and `byUsername` are read inside tests and hooks.
 */
export function useDemoUsers(env?: Parameters<typeof startTestApp>[0]): FileDemoUsers {
  let lab: TestApp | undefined;
  let users: DemoUsers | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('The demo users are not signed in: use them inside a test or a hook.');
    return value;
  };
  beforeAll(async () => {
    lab = await startTestApp(env);
    users = await signInDemoUsers(lab);
  }, APP_START_TIMEOUT_MS);
  afterAll(() => lab?.close());

  const names = Object.keys(DEMO_USERNAMES) as (keyof typeof DEMO_USERNAMES)[];
  const stand = (name: keyof typeof DEMO_USERNAMES) => signedInLater(() => started(users)[name]);
  const clients = Object.fromEntries(names.map((name) => [name, stand(name)]));
  return Object.defineProperties(clients as Record<keyof typeof DEMO_USERNAMES, ApiClient>, {
    lab: { get: () => started(lab), enumerable: false },
    byUsername: { get: () => started(users).byUsername, enumerable: false },
  }) as FileDemoUsers;
}

/** A file's own app with its manager signed in, as `useDemoAdmin` answers them. */
export type FileDemoAdmin = {
  /** The demo manager, admin; taken apart at the top of the file as `useDemoUsers`' clients are. */
  readonly admin: ApiClient;
  /** The file's app; read it inside tests and hooks. */
  readonly lab: TestApp;
  /** The app's own pool, for the rows its commands write; read it inside tests and hooks. */
  readonly dataSource: DataSource;
};

/**
 * `useDemoUsers` for a file that needs only the manager: the file's own app, admin signed in, and
 * the app's DataSource. The other users are left signed out, for the file to sign in as it tests.
 */
export function useDemoAdmin(env?: Parameters<typeof startTestApp>[0]): FileDemoAdmin {
  let lab: TestApp | undefined;
  let admin: ApiClient | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The app has not started: use it inside a test or a hook.');
    return value;
  };
  beforeAll(async () => {
    lab = await startTestApp(env);
    admin = await lab.login(DEMO_USERNAMES.admin);
  }, APP_START_TIMEOUT_MS);
  afterAll(() => lab?.close());
  return Object.defineProperties(
    { admin: signedInLater(() => started(admin)) },
    {
      lab: { get: () => started(lab), enumerable: false },
      dataSource: { get: () => started(lab).app.get(DataSource), enumerable: false },
    },
  ) as FileDemoAdmin;
}

/** An ApiClient that is `client()` whenever it is used: every read goes to the signed-in one. */
function signedInLater(client: () => ApiClient): ApiClient {
  const handler: ProxyHandler<ApiClient> = {
    get(_, property) {
      const target = client();
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (_, property) => Reflect.has(client(), property),
    ownKeys: () => Reflect.ownKeys(client()),
    getOwnPropertyDescriptor: (_, property) => Reflect.getOwnPropertyDescriptor(client(), property),
  };
  return new Proxy(Object.create(ApiClient.prototype) as ApiClient, handler);
}
