/**
 * Which fields of a case's events identify its patient, and so are stored encrypted under the
 * case's key: names, free texts written by users, file names and links. What an erased case reads
 * instead of each kind: a name "Erased patient", a text "[erased]", no file, no link.
 */
import { CASE_ERASURE } from '@alignerflow/domain';

export type SealedKind = 'name' | 'text' | 'files' | 'link';

/** A field's path in the event's data ('*': every element of an array) and its kind. */
type Field = [path: string[], kind: SealedKind];

const field = (path: string, kind: SealedKind): Field => [path.split('.'), kind];

const CASE_FIELDS: Field[] = [
  field('patientName', 'name'),
  field('treatmentPlanNotes', 'text'),
  field('files', 'files'),
  field('notes.*.text', 'text'),
  field('simulationVideoUrl', 'link'),
  field('simulationExternalLink', 'link'),
  field('planVersions.*.comment', 'text'),
  field('planVersions.*.simulationVideoUrl', 'link'),
  field('planVersions.*.simulationExternalLink', 'link'),
  field('origin.reason', 'text'),
];

export const SEALED_FIELDS: Readonly<Record<string, readonly Field[]>> = {
  CaseCreated: [
    field('patientName', 'name'),
    field('treatmentPlanNotes', 'text'),
    field('files', 'files'),
    field('origin.reason', 'text'),
  ],
  CaseRejected: [field('reason', 'text')],
  ChangesRequested: [field('comment', 'text')],
  CaseDetailsEdited: [
    field('changes.patientName', 'name'),
    field('changes.treatmentPlanNotes', 'text'),
    field('changes.simulationVideoUrl', 'link'),
    field('changes.simulationExternalLink', 'link'),
  ],
  SimulationLinksSaved: [field('simulationVideoUrl', 'link'), field('simulationExternalLink', 'link')],
  NoteAdded: [field('text', 'text')],
  FilesAdded: [field('files', 'files')],
  FileRemoved: [field('url', 'text'), field('reason', 'text')],
  FilePurged: [field('url', 'text'), field('reason', 'text')],
  FollowUpOrdered: [field('reason', 'text')],
  CaseImported: CASE_FIELDS.map(([path, kind]) => [['case', ...path], kind] as Field),
};

/** What a sealed field reads once its case's key is gone. */
export function erasedValue(kind: SealedKind): unknown {
  switch (kind) {
    case 'name':
      return CASE_ERASURE.erasedName;
    case 'text':
      return CASE_ERASURE.erasedText;
    case 'files':
      return [];
    case 'link':
      return '';
  }
}

/**
 * The stored form of an encrypted field: its place in the event's one ciphertext (`$sealed`), or
 * a ciphertext of its own ("v1:…").
 */
export interface SealedValue {
  $enc: number | string;
}

export function isSealed(value: unknown): value is SealedValue {
  if (typeof value !== 'object' || value === null) return false;
  const marker = (value as SealedValue).$enc;
  return (typeof marker === 'string' || typeof marker === 'number') && Object.keys(value).length === 1;
}

/**
 * `data` with every present field of its type's list replaced by `change(value, kind)`; copied
 * along the changed paths only, never changed in place (the caller's events stay as they were).
 * Null, absent and empty-string values stay as they are: they say nothing, and an erased case
 * must read them as it did before (an empty plan note stays empty, not "[erased]").
 */
export function mapSealedFields(
  type: string,
  data: unknown,
  change: (value: unknown, kind: SealedKind) => unknown,
): unknown {
  const fields = SEALED_FIELDS[type];
  if (!fields) return data;
  let result = data;
  for (const [path, kind] of fields) result = mapAt(result, path, 0, (value) => change(value, kind));
  return result;
}

function mapAt(node: unknown, path: string[], depth: number, change: (value: unknown) => unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  const step = path[depth];
  if (step === '*') {
    if (!Array.isArray(node)) return node;
    let copy: unknown[] | undefined;
    node.forEach((element, index) => {
      const next = mapAt(element, path, depth + 1, change);
      if (next !== element) (copy ??= [...node])[index] = next;
    });
    return copy ?? node;
  }
  const record = node as Record<string, unknown>;
  if (!(step in record)) return node;
  const value = record[step];
  const next =
    depth === path.length - 1
      ? value === null || value === undefined || value === ''
        ? value
        : change(value)
      : mapAt(value, path, depth + 1, change);
  return next === value ? node : { ...record, [step]: next };
}

/** The case a stream belongs to, or null for streams that are not a case's. */
export function caseOfStream(streamId: string): string | null {
  return streamId.startsWith('case-') ? streamId.slice(5) : null;
}
