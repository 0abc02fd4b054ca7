import { CASE_ERASURE as T, type Case } from '@alignerflow/domain';

type Data = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The History tab's sentence for an erasure or a purge; undefined for any other event. */
export function erasureHistory(
  type: string,
  who: string,
  data: Data,
  before: Case | null,
): { sentence: string; details: { label: string; value: string }[] } | undefined {
  const reason = [{ label: T.historyReason, value: text(data.reason) }];
  if (type === 'CaseErased') return { sentence: T.historyErased(who), details: reason };
  if (type === 'FilePurged') {
    const url = text(data.url);
    const name = before?.files.find((file) => file.url === url)?.name ?? lastSegment(url);
    return { sentence: T.historyPurged(who, name), details: reason };
  }
  return undefined;
}

function lastSegment(url: string): string {
  const last = url.split('/').pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
