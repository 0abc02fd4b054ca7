/** QR payloads of spec section 3: a case QR holds the case id, a stage QR holds JSON {caseId, stage}. */
export type ScannedQr = { kind: 'case'; caseId: string } | { kind: 'stage'; caseId: string; stage: number };

export const QR_OPTIONS = { version: 4, errorCorrectionLevel: 'M' } as const;
const MAX_PAYLOAD = 200;

export function casePayload(caseId: string): string {
  return caseId;
}

export function stagePayload(caseId: string, stage: number): string {
  return JSON.stringify({ caseId, stage });
}

/** JSON needs both caseId and a positive whole stage; anything else is read as a plain case id. */
export function parseQrPayload(raw: unknown): ScannedQr | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (!text || text.length > MAX_PAYLOAD) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      const { caseId, stage } = parsed as { caseId?: unknown; stage?: unknown };
      const stageNumber = typeof stage === 'string' ? Number(stage) : stage;
      if (
        typeof caseId === 'string' &&
        caseId.trim() &&
        Number.isInteger(stageNumber) &&
        (stageNumber as number) > 0
      ) {
        return { kind: 'stage', caseId: caseId.trim(), stage: stageNumber as number };
      }
    }
  } catch {
    // Not JSON: a plain case id.
  }
  return { kind: 'case', caseId: text };
}
