import {
  ACCOUNT_TEXTS,
  BILLING_TEXTS,
  CASE_TEXTS,
  CASE_WORK_TEXTS,
  HTTP_SECURITY_TEXTS,
  LIMIT_TEXTS,
  USER_TEXTS,
} from '@alignerflow/domain';
import { ACCESS_LOG_ERRORS } from '../access-log/documented-errors.js';
import { DEVICE_ERRORS } from '../materials/documented-errors.js';
import { PATIENT_DATA_ERRORS } from '../patient-data/documented-errors.js';

/** An error answer a route may give, as api.md documents it. */
export interface DocumentedError {
  status: number;
  description: string;
}

/** The 403 of a step-up route whose session has not proved its user within 10 minutes. */
const STEP_UP = `${ACCOUNT_TEXTS.confirmItIsYou} (with reauth: true)`;

const CHANGE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** api.md "Billing". */
const BILLING_ERRORS: Record<string, DocumentedError[]> = {
  'get /invoices*': [
    { status: 403, description: BILLING_TEXTS.notAllowed },
    { status: 404, description: BILLING_TEXTS.notFound },
  ],
  'post /invoices/{number}/payments': [
    { status: 400, description: BILLING_TEXTS.amountRange },
    { status: 403, description: BILLING_TEXTS.notAllowed },
    { status: 409, description: BILLING_TEXTS.alreadyVoid },
  ],
  'post /invoices/{number}/credit-notes': [
    { status: 400, description: BILLING_TEXTS.amountRange },
    { status: 403, description: BILLING_TEXTS.managersOnly },
  ],
  'post /invoices/{number}/void': [
    { status: 403, description: BILLING_TEXTS.managersOnly },
    { status: 409, description: BILLING_TEXTS.voidOnlyUntouched },
  ],
  'get /billing/*': [{ status: 403, description: BILLING_TEXTS.notAllowed }],
  'put /billing/settings': [{ status: 403, description: BILLING_TEXTS.managersOnly }],
};

/**
 * api.md's error answers per route, beyond the ones every route of its kind has (see
 * errorsOf). Keys are `METHOD path` (under the API prefix) with OpenAPI path templates, or a path
 * prefix ending in `*`.
 */
const SPECIFIC: Record<string, DocumentedError[]> = {
  'post /auth/login': [
    { status: 401, description: USER_TEXTS.invalidLogin },
    { status: 429, description: 'Too many sign-in attempts. Try again in {n} minute(s). (with Retry-After)' },
  ],
  'delete /auth/sessions/{id}': [{ status: 404, description: 'Not a session of the caller.' }],
  'post /auth/mfa/totp/confirm': [{ status: 400, description: ACCOUNT_TEXTS.codeInvalid }],
  'post /auth/login/mfa': [
    { status: 401, description: `${ACCOUNT_TEXTS.codeInvalid} / ${ACCOUNT_TEXTS.signInAgain}` },
  ],
  'post /auth/passkeys': [{ status: 400, description: ACCOUNT_TEXTS.passkeyNotVerified }],
  'delete /auth/passkeys/{id}': [{ status: 404, description: 'Not a passkey of the caller.' }],
  'post /auth/passkeys/login/options': [{ status: 401, description: ACCOUNT_TEXTS.signInAgain }],
  'post /auth/passkeys/login': [{ status: 401, description: ACCOUNT_TEXTS.passkeyNotRecognised }],
  'post /users/{username}/mfa/reset': [{ status: 403, description: `Managers only. / ${STEP_UP}` }],
  'post /auth/reauth': [
    {
      status: 400,
      description: `${ACCOUNT_TEXTS.passwordWrong} / ${ACCOUNT_TEXTS.codeInvalid} / ${ACCOUNT_TEXTS.passkeyNotRecognised}`,
    },
    { status: 429, description: 'Too many sign-in attempts. Try again in {n} minute(s). (with Retry-After)' },
  ],
  'get /users': [{ status: 403, description: 'Doctors may not list users.' }],
  'post /users': [
    { status: 403, description: `Managers only. / ${STEP_UP}` },
    { status: 409, description: `Username "{name}" is already taken. / ${USER_TEXTS.usernameOfDeletedUser}` },
  ],
  'put /users/{username}': [
    {
      status: 403,
      description: `A Manager, or the user for their own fields. / ${STEP_UP} (another's role or password)`,
    },
  ],
  'delete /users/{username}': [{ status: 403, description: `Managers only. / ${STEP_UP}` }],
  'post /users/{username}/sessions/end': [{ status: 403, description: 'Managers only.' }],
  'get /dashboard': [{ status: 403, description: 'The Lab Dashboard is for lab staff.' }],
  'get /work-queue': [{ status: 403, description: 'Doctors have no work queue.' }],
  'post /cases': [
    { status: 403, description: 'This role may not create cases.' },
    { status: 429, description: `${LIMIT_TEXTS.reached(LIMIT_TEXTS.cases)} (with Retry-After)` },
  ],
  'post /cases/{id}/*': [
    { status: 403, description: 'This role may not do this at the current stage.' },
    { status: 409, description: 'A workflow rule forbids it now, or the case was changed by someone else.' },
  ],
  'post /cases/{id}/files': [
    { status: 400, description: `${CASE_WORK_TEXTS.notYours} / "{name}" is already attached to a case.` },
  ],
  'post /cases/{id}/files/remove': [
    { status: 403, description: CASE_TEXTS.managerOnly },
    { status: 404, description: CASE_WORK_TEXTS.fileNotFound },
  ],
  'post /cases/{id}/reorders': [
    { status: 400, description: `${CASE_WORK_TEXTS.reasonCode} / ${CASE_WORK_TEXTS.otherReasonRequired}` },
    { status: 403, description: CASE_WORK_TEXTS.reorderRoles },
    { status: 409, description: CASE_WORK_TEXTS.reorderOnlyCompleted },
  ],
  'put /cases/{id}*': [
    { status: 403, description: 'This role may not do this.' },
    { status: 409, description: 'A workflow rule forbids it now, or the case was changed by someone else.' },
  ],
  'delete /cases/{id}': [{ status: 403, description: 'Managers only.' }],
  'post /scan': [
    { status: 404, description: 'Invalid QR Code' },
    { status: 409, description: 'Stage N is already started or completed.' },
  ],
  'get /backup': [{ status: 403, description: `Managers only. / ${STEP_UP}` }],
  'post /restore': [{ status: 403, description: `Managers only. / ${STEP_UP}` }],
  'get /events/export': [{ status: 403, description: `Managers only. / ${STEP_UP}` }],
  'get /audit/verify': [{ status: 403, description: 'Managers only.' }],
  'get /audit/checkpoints': [
    { status: 400, description: 'after must be a global position (a whole number).' },
    { status: 403, description: 'Managers only.' },
  ],
  'get /reports/*': [
    { status: 400, description: 'from and to must be dates as YYYY-MM-DD, from on or before to.' },
    { status: 403, description: 'Reports are for managers.' },
  ],
  ...BILLING_ERRORS,
  'post /admin/*': [{ status: 403, description: 'Managers only.' }],
  'post /push/test': [{ status: 403, description: 'Managers only.' }],
  'post /push/send/{username}': [{ status: 403, description: 'Managers only.' }],
  'post /fcm/send/{username}': [{ status: 403, description: 'Managers only.' }],
  'get /notifications/deliveries': [{ status: 403, description: 'Managers only.' }],
  'post /upload': [
    { status: 413, description: 'The upload is larger than its kind allows.' },
    { status: 429, description: `${LIMIT_TEXTS.reached(LIMIT_TEXTS.uploads)} (with Retry-After)` },
  ],
  'post /ai/analyze-photo': [
    { status: 429, description: 'Too many analyses this hour (with Retry-After).' },
    { status: 502, description: 'Failed to analyze image due to an API error.' },
    { status: 503, description: 'AI photo analysis is not configured.' },
  ],
  'get /metrics': [
    { status: 401, description: 'A valid metrics token is required.' },
    { status: 404, description: 'METRICS_TOKEN is not set.' },
  ],
  ...DEVICE_ERRORS,
  ...ACCESS_LOG_ERRORS,
  ...PATIENT_DATA_ERRORS,
  'get /health*': [{ status: 503, description: 'A dependency is down, or the process is draining.' }],
};

function matches(key: string, method: string, path: string): boolean {
  const [keyMethod, keyPath] = key.split(' ');
  if (keyMethod !== method) return false;
  return keyPath.endsWith('*') ? path.startsWith(keyPath.slice(0, -1)) : keyPath === path;
}

/**
 * Every error answer of a route: 401 unless it is public, 400 for a body that fails validation,
 * 403 and 415 for a cookie-authenticated change from another origin or without a JSON body, 413
 * for a body over the limit, 404 for an unknown id, then the route's own ones from api.md.
 */
export function errorsOf(
  method: string,
  path: string,
  route: { isPublic: boolean; hasBody: boolean },
): DocumentedError[] {
  const errors = new Map<number, string[]>();
  const add = ({ status, description }: DocumentedError) =>
    errors.set(status, [...(errors.get(status) ?? []), description]);
  if (!route.isPublic) add({ status: 401, description: HTTP_SECURITY_TEXTS.notSignedIn });
  // A session of a user who must still set up a second factor (MFA_REQUIRED_ROLES).
  if (!route.isPublic && !path.startsWith('/auth/'))
    add({ status: 403, description: ACCOUNT_TEXTS.setUpTwoStepFirst });
  if (route.hasBody) {
    add({
      status: 400,
      description: 'Invalid input: `error` names the first problem, `details` lists them all.',
    });
    add({ status: 413, description: 'The body is larger than this endpoint accepts.' });
  }
  if (CHANGE_METHODS.has(method) && !route.isPublic) {
    add({ status: 403, description: HTTP_SECURITY_TEXTS.crossSite });
    add({
      status: 415,
      description: path.endsWith('/upload')
        ? HTTP_SECURITY_TEXTS.multipartOnly
        : HTTP_SECURITY_TEXTS.jsonOnly,
    });
  }
  if (/\{(id|username)\}/.test(path))
    add({ status: 404, description: 'Unknown id, or not visible to the caller.' });
  for (const [key, documented] of Object.entries(SPECIFIC))
    if (matches(key, method, path)) documented.forEach(add);
  return [...errors].map(([status, descriptions]) => ({ status, description: descriptions.join(' / ') }));
}
