/**
 * Events on disk never change; when the shape of an event type changes, its schema version goes
 * up and an upcaster turns the older shapes into today's when they are read.
 */
export const CURRENT_SCHEMA_VERSIONS: Record<string, number> = {
  CaseCreated: 2,
  NoteAdded: 2,
};

type Upcaster = (data: any) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

const UPCASTERS: Record<string, Record<number, Upcaster>> = {
  // v1 called the due date `dueDate` and had no fee (doctors' fees came with v2).
  CaseCreated: {
    1: ({ dueDate, ...rest }) => ({
      ...rest,
      deliveryDate: rest.deliveryDate ?? dueDate ?? null,
      fee: rest.fee ?? null,
    }),
  },
  // v1 stored the note as `note`.
  NoteAdded: {
    1: ({ note, ...rest }) => ({ ...rest, text: rest.text ?? note }),
  },
};

export function schemaVersionOf(type: string): number {
  return CURRENT_SCHEMA_VERSIONS[type] ?? 1;
}

/** Brings event data of any stored schema version up to the current one, step by step. */
export function upcast(type: string, schemaVersion: number, data: unknown): unknown {
  let result = data;
  for (let version = schemaVersion; version < schemaVersionOf(type); version++) {
    const step = UPCASTERS[type]?.[version];
    if (step) result = step(result);
  }
  return result;
}
