import fc from 'fast-check';
import { casePayload, parseQrPayload, QR_OPTIONS, stagePayload, type ScannedQr } from './qr.js';

describe('QR payloads (spec section 3)', () => {
  it('a case QR holds the case id', () => {
    expect(casePayload('CA-2025-123')).toBe('CA-2025-123');
  });

  it('a stage QR holds JSON with caseId and stage', () => {
    expect(JSON.parse(stagePayload('CA-2025-123', 4))).toEqual({ caseId: 'CA-2025-123', stage: 4 });
  });

  it('uses QR type 4 with error correction M for both (spec section 9)', () => {
    expect(QR_OPTIONS).toEqual({ version: 4, errorCorrectionLevel: 'M' });
  });
});

describe('parseQrPayload: JSON needs both caseId and stage, otherwise a plain case id', () => {
  const long = 'x'.repeat(201);
  it.each<[string, unknown, ScannedQr | undefined]>([
    ['a plain case id', 'CA-2025-123', { kind: 'case', caseId: 'CA-2025-123' }],
    ['a plain case id with spaces', '  CA-2025-123\n', { kind: 'case', caseId: 'CA-2025-123' }],
    ['a stage QR', '{"caseId":"CA-2025-123","stage":3}', { kind: 'stage', caseId: 'CA-2025-123', stage: 3 }],
    [
      'a stage given as text',
      '{"caseId":"CA-2025-123","stage":"7"}',
      { kind: 'stage', caseId: 'CA-2025-123', stage: 7 },
    ],
    [
      'extra fields are ignored',
      '{"caseId":"CA-1","stage":2,"x":1}',
      { kind: 'stage', caseId: 'CA-1', stage: 2 },
    ],
    ['caseId trimmed', '{"caseId":" CA-1 ","stage":2}', { kind: 'stage', caseId: 'CA-1', stage: 2 }],
    ['missing stage', '{"caseId":"CA-2025-123"}', { kind: 'case', caseId: '{"caseId":"CA-2025-123"}' }],
    ['missing caseId', '{"stage":3}', { kind: 'case', caseId: '{"stage":3}' }],
    ['empty caseId', '{"caseId":"","stage":3}', { kind: 'case', caseId: '{"caseId":"","stage":3}' }],
    ['blank caseId', '{"caseId":"  ","stage":3}', { kind: 'case', caseId: '{"caseId":"  ","stage":3}' }],
    ['numeric caseId', '{"caseId":5,"stage":3}', { kind: 'case', caseId: '{"caseId":5,"stage":3}' }],
    ['stage 0', '{"caseId":"CA-1","stage":0}', { kind: 'case', caseId: '{"caseId":"CA-1","stage":0}' }],
    [
      'negative stage',
      '{"caseId":"CA-1","stage":-2}',
      { kind: 'case', caseId: '{"caseId":"CA-1","stage":-2}' },
    ],
    [
      'fractional stage',
      '{"caseId":"CA-1","stage":1.5}',
      { kind: 'case', caseId: '{"caseId":"CA-1","stage":1.5}' },
    ],
    [
      'stage text not a number',
      '{"caseId":"CA-1","stage":"two"}',
      { kind: 'case', caseId: '{"caseId":"CA-1","stage":"two"}' },
    ],
    [
      'stage empty text',
      '{"caseId":"CA-1","stage":""}',
      { kind: 'case', caseId: '{"caseId":"CA-1","stage":""}' },
    ],
    [
      'stage null',
      '{"caseId":"CA-1","stage":null}',
      { kind: 'case', caseId: '{"caseId":"CA-1","stage":null}' },
    ],
    ['a JSON array', '["CA-1",3]', { kind: 'case', caseId: '["CA-1",3]' }],
    ['JSON null', 'null', { kind: 'case', caseId: 'null' }],
    ['a JSON number', '12345', { kind: 'case', caseId: '12345' }],
    ['broken JSON', '{"caseId":"CA-1","stage":', { kind: 'case', caseId: '{"caseId":"CA-1","stage":' }],
    ['garbage', 'Ω≈ç√∫ garbage', { kind: 'case', caseId: 'Ω≈ç√∫ garbage' }],
    ['empty', '', undefined],
    ['blank', '   ', undefined],
    ['too long', long, undefined],
    ['not text: number', 42, undefined],
    ['not text: object', { caseId: 'CA-1', stage: 1 }, undefined],
    ['not text: null', null, undefined],
    ['not text: undefined', undefined, undefined],
  ])('%s', (_label, raw, expected) => {
    expect(parseQrPayload(raw)).toEqual(expected);
  });

  it('reads back every stage payload it writes (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2100 }),
        fc.integer({ min: 100, max: 99999 }),
        fc.integer({ min: 1, max: 200 }),
        (year, suffix, stage) => {
          const caseId = `CA-${year}-${suffix}`;
          expect(parseQrPayload(stagePayload(caseId, stage))).toEqual({ kind: 'stage', caseId, stage });
          expect(parseQrPayload(casePayload(caseId))).toEqual({ kind: 'case', caseId });
        },
      ),
    );
  });

  it('never throws on any input (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.anything()), (raw) => {
        const parsed = parseQrPayload(raw);
        if (parsed) expect(['case', 'stage']).toContain(parsed.kind);
      }),
      { numRuns: 300 },
    );
  });
});
