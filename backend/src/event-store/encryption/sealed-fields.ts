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
 *
 * The type's paths are walked together, as a tree (FIELD_TREES): each object on them is copied
 * at most once, however many of its fields change (a CaseImported changes about eight).
 */
export function mapSealedFields(
  type: string,
  data: unknown,
  change: (value: unknown, kind: SealedKind) => unknown,
): unknown {
  const tree = FIELD_TREES.get(type);
  return tree ? mapNode(data, tree, change) : data;
}

/** A type's fields as a tree of their paths: a step's subtree, or at a field's end its kind. */
interface FieldTree {
  steps: [step: string, next: FieldTree | SealedKind][];
}

const FIELD_TREES = new Map(Object.entries(SEALED_FIELDS).map(([type, fields]) => [type, treeOf(fields)]));

function treeOf(fields: readonly Field[]): FieldTree {
  const root: FieldTree = { steps: [] };
  for (const [path, kind] of fields) {
    let node = root;
    path.forEach((step, depth) => {
      const found = node.steps.find(([name]) => name === step);
      if (depth === path.length - 1) {
        if (!found) node.steps.push([step, kind]);
        return;
      }
      if (found && typeof found[1] === 'object') node = found[1];
      else {
        const next: FieldTree = { steps: [] };
        node.steps.push([step, next]);
        node = next;
      }
    });
  }
  return root;
}

function mapNode(
  node: unknown,
  tree: FieldTree,
  change: (value: unknown, kind: SealedKind) => unknown,
): unknown {
  if (node === null || typeof node !== 'object') return node;
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const [step, next] of tree.steps) {
    if (step === '*') {
      if (!Array.isArray(node)) continue;
      for (let index = 0; index < node.length; index++) {
        const element: unknown = node[index];
        const changed = mapStep(element, next, change);
        if (changed !== element) ((copy as unknown[] | undefined) ??= [...node])[index] = changed;
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    if (!(step in record)) continue;
    const value = record[step];
    const changed = mapStep(value, next, change);
    if (changed !== value) ((copy as Record<string, unknown> | undefined) ??= { ...record })[step] = changed;
  }
  return copy ?? node;
}

function mapStep(
  value: unknown,
  next: FieldTree | SealedKind,
  change: (value: unknown, kind: SealedKind) => unknown,
): unknown {
  if (typeof next === 'object') return mapNode(value, next, change);
  return value === null || value === undefined || value === '' ? value : change(value, next);
}

/** The case a stream belongs to, or null for streams that are not a case's. */
export function caseOfStream(streamId: string): string | null {
  return streamId.startsWith('case-') ? streamId.slice(5) : null;
}
