import { ACCOUNT_TEXTS } from '@alignerflow/domain';
import type {
  BackupContents,
  BackupFile,
  Case,
  CaseSummary,
  ClientConfig,
  CreateUserBody,
  DashboardFigures,
  LoginBody,
  MeAnswer,
  NotificationMessageBody,
  QueuedAnswer,
  ReportRange,
  ReportSummary,
  ReportTable,
  RestoreAnswer,
  Role,
  SignInAnswer,
  UpdateUserBody,
  User,
  VapidKeyAnswer,
} from '@alignerflow/domain';

/** `{base}api`: the API lives under the app's base path on the same origin. */
export const API_BASE = `${import.meta.env.BASE_URL}api`;

/** A non-2xx answer; `message` follows spec section 8 "API failure". */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server could not be reached at all (offline, DNS, connection refused). */
export class NetworkError extends Error {
  constructor(message = 'The server cannot be reached.') {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The user closed the re-authentication dialog: the call that needed it is not made. */
export class StepUpCancelled extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepUpCancelled';
  }
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}

/** The message of a failed answer: the JSON error or message field, else the status line and body text. */
export function failureMessage(status: number, statusText: string, text: string): string {
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') {
        const { error, message } = parsed as { error?: unknown; message?: unknown };
        if (typeof error === 'string' && error) return error;
        if (typeof message === 'string' && message) return message;
      }
    } catch {
      // Not JSON: fall through to the status line with the body text.
    }
    return `HTTP ${status} ${statusText}: ${text.slice(0, 300)}`;
  }
  return `HTTP ${status} ${statusText}`;
}

interface RequestOptions {
  body?: unknown;
  etag?: string | null;
  /** Do not log a failure with this status (an expected answer such as 401 on /auth/me). */
  quietStatuses?: number[];
}

/**
 * What the app does when a call needs a fresh proof of the user (403 `reauth: true`): resolves
 * once `POST /auth/reauth` succeeded (the call is then repeated), rejects when the user cancels.
 */
export type StepUpHandler = () => Promise<void>;
/** What the app does when a call answers that two-step sign-in must be set up first. */
export type EnrolmentHandler = () => void;

const handlers: { stepUp: StepUpHandler | null; enrolment: EnrolmentHandler | null } = {
  stepUp: null,
  enrolment: null,
};
/** One dialog for every call waiting on the same proof. */
let pendingStepUp: Promise<void> | null = null;

/** The app registers its re-authentication dialog here; the returned function unregisters it. */
export function onStepUpRequired(handler: StepUpHandler): () => void {
  handlers.stepUp = handler;
  return () => {
    if (handlers.stepUp === handler) handlers.stepUp = null;
  };
}

/** The app registers its switch to the enrolment screen here. */
export function onEnrolmentRequired(handler: EnrolmentHandler): () => void {
  handlers.enrolment = handler;
  return () => {
    if (handlers.enrolment === handler) handlers.enrolment = null;
  };
}

function needsStepUp(error: ApiError): boolean {
  return error.status === 403 && (error.body as { reauth?: unknown } | null)?.reauth === true;
}

function needsEnrolment(error: ApiError): boolean {
  return error.status === 403 && error.message === ACCOUNT_TEXTS.setUpTwoStepFirst;
}

function stepUp(handler: StepUpHandler): Promise<void> {
  pendingStepUp ??= handler().finally(() => (pendingStepUp = null));
  return pendingStepUp;
}

export interface Fresh<T> {
  notModified: false;
  data: T;
  etag: string | null;
}
export type Conditional<T> = Fresh<T> | { notModified: true };

/**
 * Every call of the app goes through here, so a step-up call (backup, export, restore, user
 * administration, a factor reset) asks the user to confirm it is them and is then repeated.
 */
async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  try {
    return await sendOnce(method, path, options);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (needsStepUp(error) && handlers.stepUp) {
      await stepUp(handlers.stepUp);
      return send(method, path, options);
    }
    if (needsEnrolment(error)) handlers.enrolment?.();
    throw error;
  }
}

async function sendOnce(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.etag) headers['If-None-Match'] = options.etag;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (error) {
    console.error(`${method} ${path} failed`, error);
    throw new NetworkError();
  }
  if (!response.ok && response.status !== 304) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // keep the raw text
    }
    const error = new ApiError(
      failureMessage(response.status, response.statusText, text),
      response.status,
      body,
    );
    const quiet = options.quietStatuses?.includes(response.status) || needsStepUp(error);
    if (!quiet) console.error(`${method} ${path}:`, error.message);
    throw error;
  }
  return response;
}

async function json<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  return json<T>(await send(method, path, options));
}

/** A GET with If-None-Match: a 304 answers `{notModified: true}`. */
export async function conditionalGet<T>(path: string, etag: string | null): Promise<Conditional<T>> {
  const response = await send('GET', path, { etag });
  if (response.status === 304) return { notModified: true };
  return { notModified: false, data: await json<T>(response), etag: response.headers.get('ETag') };
}

const enc = encodeURIComponent;

/** A CSV download's address: a plain link, the session cookie authenticates it. */
export function reportCsvUrl(table: ReportTable, { from, to }: ReportRange): string {
  return `${API_BASE}/reports/${table}.csv?from=${enc(from)}&to=${enc(to)}`;
}

// ---- Endpoints -------------------------------------------------------------------------------

export const api = {
  config: () => request<ClientConfig>('GET', '/config', { quietStatuses: [404] }),

  login: (username: string, password: string, rememberMe: boolean) =>
    request<SignInAnswer>('POST', '/auth/login', {
      body: { username, password, rememberMe } satisfies LoginBody,
      quietStatuses: [401, 429],
    }),
  me: () => request<MeAnswer>('GET', '/auth/me', { quietStatuses: [401] }),
  logout: () => request<void>('POST', '/auth/logout'),
  /** Ends every session of the caller, this one included. */
  logoutEverywhere: () => request<void>('POST', '/auth/logout-everywhere'),
  /** A self-change: the server asks the current password and ends the caller's other sessions. */
  changeOwnPassword: (username: string, currentPassword: string, password: string) =>
    request<User>('PUT', `/users/${enc(username)}`, {
      body: { currentPassword, password } satisfies UpdateUserBody,
      quietStatuses: [400],
    }),

  cases: (etag: string | null = null) => conditionalGet<CaseSummary[]>('/cases', etag),
  case: (id: string) => request<Case>('GET', `/cases/${enc(id)}`),
  deleteCase: (id: string) => request<void>('DELETE', `/cases/${enc(id)}`),
  dashboard: () => request<DashboardFigures>('GET', '/dashboard'),
  reportSummary: ({ from, to }: ReportRange) =>
    request<ReportSummary>('GET', `/reports/summary?from=${enc(from)}&to=${enc(to)}`),
  workQueue: () => request<CaseSummary[]>('GET', '/work-queue'),

  users: (etag: string | null = null) => conditionalGet<User[]>('/users', etag),
  createUser: (username: string, password: string, role: Role) =>
    request<User>('POST', '/users', { body: { username, password, role } satisfies CreateUserBody }),
  /** Another user's settings, or the caller's own; a password change is changeOwnPassword. */
  updateUser: (username: string, changes: Omit<UpdateUserBody, 'password' | 'currentPassword'>) =>
    request<User>('PUT', `/users/${enc(username)}`, { body: changes }),
  deleteUser: (username: string) => request<void>('DELETE', `/users/${enc(username)}`),
  endSessions: (username: string) => request<void>('POST', `/users/${enc(username)}/sessions/end`),

  backup: () => request<BackupContents>('GET', '/backup'),
  restore: (backup: BackupFile) => request<RestoreAnswer>('POST', '/restore', { body: backup }),

  vapidPublicKey: () => request<VapidKeyAnswer>('GET', '/push/vapid-public-key'),
  pushSubscribe: (subscription: PushSubscriptionJSON, username: string) =>
    request<void>('POST', '/push/subscribe', { body: { ...subscription, username } }),
  pushTest: (message: NotificationMessageBody) =>
    request<QueuedAnswer>('POST', '/push/test', { body: message }),
  pushSend: (username: string, message: NotificationMessageBody & { body: string }) =>
    request<QueuedAnswer>('POST', `/push/send/${enc(username)}`, { body: message }),
  fcmSend: (username: string, message: NotificationMessageBody & { body: string }) =>
    request<QueuedAnswer>('POST', `/fcm/send/${enc(username)}`, { body: message }),
};
