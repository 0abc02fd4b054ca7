import type { ReadModel } from '../../event-store/read-model.js';

const CASE_ID = /^CA-(\d{4})-(\d+)$/;

/**
 * case_ids: every case id ever handed out, so none is reused. A creation reserves its id in its
 * own transaction (commands/case-id-allocator.ts); a rebuild and a restore write the ids of the
 * cases they bring.
 */
export const CASE_IDS: ReadModel = {
  table: 'case_ids',
  columns: [
    { name: 'id', type: 'text' },
    { name: 'year', type: 'int' },
    { name: 'suffix', type: 'int' },
  ],
  key: ['id'],
};

/** The case_ids row of an id (none for an id of another shape). */
export function caseIdRows(id: string): unknown[][] {
  const match = CASE_ID.exec(id);
  return match ? [[id, Number(match[1]), Number(match[2])]] : [];
}
