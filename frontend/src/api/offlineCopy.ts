import type { Case, CaseSummary, User } from '@alignerflow/domain';
import type { DashboardFigures } from '@alignerflow/domain';

/** The last synced data of one signed-in user, shown when the server cannot be reached. */
export interface OfflineCopy {
  owner: User;
  /** Summaries; a copy kept before lists carried summaries holds whole cases. */
  cases: (CaseSummary | Case)[];
  /** The whole cases opened lately (absent from copies older than case summaries). */
  details?: Record<string, Case>;
  users: User[] | null;
  dashboard: DashboardFigures | null;
  syncedAt: string | null;
  /**
   * When the session the copy was saved under ends (GET /auth/me's expiresAt, ISO). Past it the
   * copy is not shown: patient data must not outlive the session (api.md, "Patient data").
   */
  expiresAt?: string | null;
}

/** Whether the copy may still be shown: its session would still be valid now. A copy without an end (kept by an older version) may not. */
export function isCopyStillValid(copy: Pick<OfflineCopy, 'expiresAt'>, now = Date.now()): boolean {
  const end = copy.expiresAt ? Date.parse(copy.expiresAt) : NaN;
  return Number.isFinite(end) && end > now;
}

/**
 * The copy lives in IndexedDB. localStorage needed one JSON string of it all, blocking the main
 * thread, and its quota refused that string for a large lab, so the copy was lost. IndexedDB
 * stores by structured clone, which is synchronous too (docs/performance.md, "Figures behind
 * comments"), so the cases go in records of CASES_PER_RECORD, each written from the previous one's success
 * event: one task per record, with room for input and rendering in between, and still one
 * transaction, so a copy is replaced whole or not at all.
 */
const DATABASE = 'alignerflow';
/** The copy without its cases, under COPY_KEY. */
const COPY_STORE = 'offline';
const COPY_KEY = 'copy';
/** The copy's cases, CASES_PER_RECORD to a record, keyed 0, 1, 2… in their order. */
const CASES_STORE = 'offlineCases';
const CASES_PER_RECORD = 250;

type StoredCopy = Omit<OfflineCopy, 'cases'>;

/** Where older versions kept the copy; moved into IndexedDB once, then removed. */
export const LEGACY_OFFLINE_COPY_KEY = 'alignerflow.offlineCopy';

let factory: IDBFactory | undefined = globalThis.indexedDB;
let database: Promise<IDBDatabase> | null = null;
/** Every operation runs after the one before it, so an erase is never overtaken by a write. */
let queue: Promise<unknown> = Promise.resolve();

/** Tests give each test a database of its own (fake-indexeddb); the app keeps the browser's. */
export function setIndexedDBFactory(indexedDB: IDBFactory): void {
  factory = indexedDB;
  database = null;
  queue = Promise.resolve();
}

function openDatabase(): Promise<IDBDatabase> {
  database ??= new Promise<IDBDatabase>((resolve, reject) => {
    if (!factory) throw new Error('IndexedDB is not available');
    const request = factory.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(COPY_STORE);
      request.result.createObjectStore(CASES_STORE);
    };
    request.onsuccess = () => {
      const opened = request.result;
      // Another tab upgrading the database: let it, and open again next time.
      opened.onversionchange = () => {
        opened.close();
        database = null;
      };
      resolve(opened);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
    request.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
  database.catch(() => (database = null));
  return database;
}

/**
 * Runs `work` in one transaction over both stores, after every operation queued before it; the
 * promise settles when the transaction has committed (with what `work` handed to `answer`).
 */
function transact<T>(
  mode: IDBTransactionMode,
  work: (copies: IDBObjectStore, cases: IDBObjectStore, answer: (value: T) => void) => void,
): Promise<T> {
  const result = queue.then(() =>
    openDatabase().then(
      (db) =>
        new Promise<T>((resolve, reject) => {
          const transaction = db.transaction([COPY_STORE, CASES_STORE], mode);
          let value: T;
          transaction.oncomplete = () => resolve(value);
          transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
          transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
          work(transaction.objectStore(COPY_STORE), transaction.objectStore(CASES_STORE), (answer) => {
            value = answer;
          });
        }),
    ),
  );
  queue = result.catch(() => undefined);
  return result;
}

const isCopy = (value: unknown): value is OfflineCopy =>
  !!value &&
  typeof value === 'object' &&
  'owner' in value &&
  !!value.owner &&
  Array.isArray((value as OfflineCopy).cases);

/** The older localStorage copy, if one is left; it is removed either way. */
function takeLegacyCopy(): OfflineCopy | null {
  try {
    const text = localStorage.getItem(LEGACY_OFFLINE_COPY_KEY);
    if (text === null) return null;
    localStorage.removeItem(LEGACY_OFFLINE_COPY_KEY);
    const copy: unknown = JSON.parse(text);
    return isCopy(copy) ? copy : null;
  } catch {
    return null;
  }
}

/** The stored copy, or null (none, unreadable, or IndexedDB unavailable, e.g. in private windows). */
export async function readOfflineCopy(): Promise<OfflineCopy | null> {
  const legacy = takeLegacyCopy();
  try {
    if (legacy) {
      await writeOfflineCopy(legacy);
      return legacy;
    }
    return await transact<OfflineCopy | null>('readonly', (copies, cases, answer) => {
      const read = copies.get(COPY_KEY);
      read.onsuccess = () => {
        const stored = read.result as StoredCopy | undefined;
        if (!stored?.owner) return answer(null);
        // One record per task, as they were written.
        const all: (CaseSummary | Case)[] = [];
        const cursor = cases.openCursor();
        cursor.onsuccess = () => {
          if (!cursor.result) return answer({ ...stored, cases: all });
          all.push(...(cursor.result.value as (CaseSummary | Case)[]));
          cursor.result.continue();
        };
      };
    });
  } catch (error) {
    console.warn('Could not read the offline copy of the data', error);
    return legacy;
  }
}

/**
 * Replaces the copy. Each record is cloned when it is put, one per task, the first when this
 * write's turn comes: the cache never mutates the arrays it hands out, so that is still the data
 * passed in. Call this when the main thread is idle.
 */
export function writeOfflineCopy({ cases, ...rest }: OfflineCopy): Promise<void> {
  return transact<void>('readwrite', (copies, caseRecords) => {
    caseRecords.clear();
    let record = 0;
    const putNext = () => {
      const start = record * CASES_PER_RECORD;
      if (start >= cases.length) {
        copies.put(rest satisfies StoredCopy, COPY_KEY);
        return;
      }
      caseRecords.put(cases.slice(start, start + CASES_PER_RECORD), record++).onsuccess = putNext;
    };
    putNext();
  });
}

/** Deletes the copy (logout: patient data must not outlive the session), the older one included. */
export function eraseOfflineCopy(): Promise<void> {
  try {
    localStorage.removeItem(LEGACY_OFFLINE_COPY_KEY);
  } catch {
    // Storage disabled: there is nothing in it to remove.
  }
  return transact<void>('readwrite', (copies, cases) => {
    copies.clear();
    cases.clear();
  });
}
