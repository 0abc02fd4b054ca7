import { checkPricing } from '../case/input-checks.js';
import { CASE_TYPE, PRIORITIES, type Case } from '../case/case.js';
import { isCaseId } from '../case/case-id.js';
import { parseStatus } from '../case/status.js';
import { isAdminUsername, parseRole, type Role } from '../permissions/roles.js';
import { checkEmail, checkNotify, USER_TEXTS, type NotifyChannels } from '../users/users.js';
import { checkPasswordFor } from '../users/guessable-password.js';
import { LIMITS } from '../validation/validation.js';
import type { BackupFile } from '../contract/backup.js';
import {
  type Raw,
  FieldError,
  fail,
  planVersions,
  origin,
  followUps,
  workflow,
  technicians,
  files,
  notes,
  staging,
  wearDays,
  creator,
  fee,
  deliveryDate,
  link,
  text,
  optionalName,
  optionalBoolean,
  optionalDateTime,
  isObject,
} from './backup-fields.js';
import { deviceFields } from './backup-devices.js';

export const INVALID_BACKUP = 'Invalid backup file format.';

/** A user of a backup file: ours carry `passwordHash`, the spec's older files a plain `password`. */
export interface BackupUser {
  username: string;
  role: Role;
  email: string | null;
  activationSoundEnabled: boolean;
  /** Absent in backups written before users chose their channels: both on. */
  notify?: NotifyChannels;
  passwordHash?: string;
  password?: string;
}

export type BackupCase = Omit<Case, 'version' | 'deleted'>;

/** A checked backup: `GET /backup`'s answer, and a body `POST /restore` takes back as it is. */
export interface BackupContents extends BackupFile {
  users: BackupUser[];
  cases: BackupCase[];
}

export type BackupCheck = { value: BackupContents } | { error: string; details: string[] };

/** At most this many problems are listed in `details`; the first one is the error. */
const MAX_DETAILS = 50;

type Checked<T> = { value: T } | { error: string };

/**
 * Checks a whole backup file before anything is restored and brings it into today's shape: the
 * fields the spec's older format lacks get their defaults, statuses their display names, the role
 * 'admin' becomes Manager. Every invalid entry is named by its index (and id or username).
 */
export function checkBackup(body: unknown, now: string): BackupCheck {
  if (!isObject(body) || !Array.isArray(body.users) || !Array.isArray(body.cases)) {
    return { error: INVALID_BACKUP, details: [] };
  }
  const problems: string[] = [];
  const users: BackupUser[] = [];
  const usernames = new Set<string>();
  body.users.forEach((raw: unknown, index: number) => {
    const name = isObject(raw) && typeof raw.username === 'string' ? raw.username.trim() : '';
    const checked = entry(() => checkUser(raw));
    if ('error' in checked) {
      problems.push(`Invalid user at index ${index}${name ? ` (${name})` : ''}: ${checked.error}`);
    } else if (usernames.has(checked.value.username.toLowerCase())) {
      problems.push(`Invalid user at index ${index} (${name}): the username is listed twice.`);
    } else {
      usernames.add(checked.value.username.toLowerCase());
      users.push(checked.value);
    }
  });
  const cases: BackupCase[] = [];
  const ids = new Set<string>();
  body.cases.forEach((raw: unknown, index: number) => {
    const id = isObject(raw) && typeof raw.id === 'string' ? raw.id.trim() : '';
    const checked = entry(() => checkCase(raw, now));
    if ('error' in checked) {
      problems.push(`Invalid case at index ${index}${id ? ` (${id})` : ''}: ${checked.error}`);
    } else if (ids.has(checked.value.id)) {
      problems.push(`Invalid case at index ${index} (${id}): the id is listed twice.`);
    } else {
      ids.add(checked.value.id);
      cases.push(checked.value);
    }
  });
  if (problems.length) return { error: problems[0], details: problems.slice(0, MAX_DETAILS) };
  return { value: { users, cases } };
}

function entry<T>(check: () => T): Checked<T> {
  try {
    return { value: check() };
  } catch (error) {
    if (error instanceof FieldError) return { error: error.message };
    throw error;
  }
}

function checkUser(raw: unknown): BackupUser {
  if (!isObject(raw)) fail('an entry must be an object.');
  const user = raw as Raw;
  const username = text('username', user.username, { required: true, max: LIMITS.username });
  if (user.role === undefined || user.role === null || user.role === '') fail('role is required.');
  const role = parseRole(user.role) ?? fail(`role "${String(user.role)}" is unknown.`);
  if (isAdminUsername(username) && role !== 'Manager') fail(USER_TEXTS.adminStaysManager);
  const email = checkEmail(user.email);
  if ('error' in email) fail(email.error);
  const activationSoundEnabled = user.activationSoundEnabled !== false;
  let notify: NotifyChannels | undefined;
  if (user.notify !== undefined && user.notify !== null) {
    const checked = checkNotify(user.notify);
    if ('error' in checked) fail(checked.error);
    else notify = checked.value;
  }
  const base = {
    username,
    role,
    email: 'value' in email ? email.value : null,
    activationSoundEnabled,
    ...(notify ? { notify } : {}),
  };
  if (typeof user.passwordHash === 'string' && user.passwordHash !== '') {
    if (!/^\$argon2(id|i|d)\$/.test(user.passwordHash) || user.passwordHash.length > 512) {
      fail('passwordHash is not an argon2 hash.');
    }
    return { ...base, passwordHash: user.passwordHash };
  }
  if (typeof user.password === 'string' && user.password.trim() !== '') {
    if (user.password.length > LIMITS.password)
      fail(`password must be at most ${LIMITS.password} characters.`);
    // A password that becomes a hash here is a new password: the same rules as anywhere else.
    const weak = checkPasswordFor(username, user.password);
    if (weak) fail(weak);
    return { ...base, password: user.password };
  }
  return fail('password or passwordHash is required.');
}

function checkCase(raw: unknown, now: string): BackupCase {
  if (!isObject(raw)) fail('an entry must be an object.');
  const input = raw as Raw;
  if (input.id === undefined || input.id === null || input.id === '') fail('id is required.');
  const id = typeof input.id === 'string' ? input.id.trim() : '';
  if (!isCaseId(id)) fail(`id "${String(input.id)}" is not a case id (CA-YYYY-NNN).`);

  const patientName = text('patientName', input.patientName, { required: true });
  const doctorName = text('doctorName', input.doctorName, { required: true });
  const clinicName = text('clinicName', input.clinicName, { required: true });
  if (input.status === undefined || input.status === null || input.status === '') fail('status is required.');
  const status = parseStatus(String(input.status)) ?? fail(`status "${String(input.status)}" is unknown.`);
  if (input.type !== undefined && input.type !== CASE_TYPE) fail(`type must be "${CASE_TYPE}".`);
  const priority =
    input.priority === undefined || input.priority === null || input.priority === ''
      ? 'Normal'
      : (PRIORITIES.find((known) => known.toLowerCase() === String(input.priority).trim().toLowerCase()) ??
        fail('priority must be Normal or High.'));
  const onHold = optionalBoolean('onHold', input.onHold, false);
  const createdDate = optionalDateTime('createdDate', input.createdDate) ?? now;
  const statusEnteredAt = optionalDateTime('statusEnteredAt', input.statusEnteredAt) ?? createdDate;
  // The pricing form's own rule: non-numeric or empty values are absent, numbers out of range refused.
  const pricing = checkPricing(input);
  if ('error' in pricing) fail(pricing.error);

  return {
    id,
    patientName,
    doctorName,
    clinicName,
    assignedDoctorUsername: optionalName(
      'assignedDoctorUsername',
      input.assignedDoctorUsername ?? input.doctor,
    ),
    type: CASE_TYPE,
    status,
    statusEnteredAt,
    priority,
    onHold,
    createdDate,
    deliveryDate: deliveryDate(input.deliveryDate === undefined ? input.dueDate : input.deliveryDate),
    assignedTechnicians: technicians(input.assignedTechnicians),
    alignerWorkflow: workflow(input.alignerWorkflow, status),
    files: files(input.files),
    notes: notes(input.notes, createdDate),
    treatmentPlanNotes: text('treatmentPlanNotes', input.treatmentPlanNotes, { max: LIMITS.notes }),
    // The browser opens and frames these: the same check as the commands that save them.
    simulationVideoUrl: link('simulationVideoUrl', input.simulationVideoUrl),
    simulationExternalLink: link('simulationExternalLink', input.simulationExternalLink),
    ...(pricing as { value: Pick<Case, 'price' | 'upperSheets' | 'lowerSheets'> }).value,
    staging: staging(input.staging),
    stageWearTimeInDays: wearDays(input.stageWearTimeInDays),
    createdBy: creator(input.createdBy),
    fee: fee(input.fee),
    planVersions: planVersions(input.planVersions),
    origin: origin(input.origin),
    followUps: followUps(input.followUps),
    ...deviceFields(input),
    ...erasureFields(input),
  };
}

/** An erased case stays erased through a backup and its restore (api.md "Patient data"). */
function erasureFields(input: Raw): Pick<Case, 'erasedAt' | 'erasedBy'> {
  const erasedAt = optionalDateTime('erasedAt', input.erasedAt);
  const erasedBy = optionalName('erasedBy', input.erasedBy);
  return erasedAt ? { erasedAt, erasedBy: erasedBy ?? 'system' } : {};
}
