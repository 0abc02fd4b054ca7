import {
  CASES_CSV_HEADER,
  csvCell,
  defaultReportRange,
  leftStatus,
  originFrom,
  parseReportRange,
  REPORT_STAGES,
  REPORT_TEXTS,
  toCsv,
  weeksOf,
  weekStart,
} from './reports';

describe('report range', () => {
  it('accepts two dates with from on or before to', () => {
    expect(parseReportRange('2026-03-01', '2026-03-31')).toEqual({
      range: { from: '2026-03-01', to: '2026-03-31' },
    });
    expect(parseReportRange('2026-03-01', '2026-03-01')).toEqual({
      range: { from: '2026-03-01', to: '2026-03-01' },
    });
  });

  it('refuses missing, malformed, impossible, reversed and overlong ranges with a clear text', () => {
    expect(parseReportRange(undefined, '2026-03-01')).toEqual({ error: REPORT_TEXTS.missingRange });
    expect(parseReportRange(['2026-03-01'], '2026-03-01')).toEqual({ error: REPORT_TEXTS.missingRange });
    expect(parseReportRange('2026-3-1', '2026-03-01')).toEqual({
      error: 'from must be a date as YYYY-MM-DD (got "2026-3-1").',
    });
    expect(parseReportRange('2026-03-01', '2026-02-30')).toEqual({
      error: 'to must be a date as YYYY-MM-DD (got "2026-02-30").',
    });
    expect(parseReportRange('2026-03-02', '2026-03-01')).toEqual({ error: REPORT_TEXTS.fromAfterTo });
    expect(parseReportRange('2000-01-01', '2026-03-01')).toEqual({ error: REPORT_TEXTS.tooLong });
  });
});

describe('weeks', () => {
  it('start on Monday', () => {
    expect(weekStart('2026-03-02')).toBe('2026-03-02'); // a Monday
    expect(weekStart('2026-03-08')).toBe('2026-03-02'); // the Sunday after it
    expect(weekStart('2026-03-04')).toBe('2026-03-02');
    expect(weekStart('2026-03-01')).toBe('2026-02-23'); // a Sunday belongs to the week before
  });

  it('lists every week a range touches', () => {
    expect(weeksOf({ from: '2026-03-04', to: '2026-03-16' })).toEqual([
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
    ]);
    expect(weeksOf({ from: '2026-03-01', to: '2026-03-01' })).toEqual(['2026-02-23']);
  });

  it('defaults to the last twelve whole weeks up to today', () => {
    expect(defaultReportRange('2026-11-25')).toEqual({ from: '2026-09-07', to: '2026-11-25' });
    expect(weeksOf(defaultReportRange('2026-11-25'))).toHaveLength(12);
  });
});

describe('stage intervals', () => {
  const at = (status: string, statusEnteredAt: string) => ({ status, statusEnteredAt }) as never;

  it('records the status a change of status left, from its entry to the change', () => {
    expect(
      leftStatus(
        at('Digital Planning', '2026-03-02T09:00:00Z'),
        { type: 'StageAdvanced' },
        at('Doctor Approval', '2026-03-03T10:00:00Z'),
      ),
    ).toEqual({
      status: 'Digital Planning',
      enteredAt: '2026-03-02T09:00:00Z',
      leftAt: '2026-03-03T10:00:00Z',
    });
  });

  it('records nothing when the status stays, for a new case or for a restore', () => {
    const planning = at('Digital Planning', '2026-03-02T09:00:00Z');
    expect(leftStatus(planning, { type: 'CaseHeld' }, planning)).toBeNull();
    expect(leftStatus(null, { type: 'CaseCreated' }, planning)).toBeNull();
    expect(
      leftStatus(planning, { type: 'CaseImported' }, at('Completed', '2026-03-09T09:00:00Z')),
    ).toBeNull();
  });

  it('counts time in every status but Completed, in the manufacturing order', () => {
    expect(REPORT_STAGES[0]).toBe('Pending Approval');
    expect(REPORT_STAGES).not.toContain('Completed');
    expect(REPORT_STAGES).toHaveLength(10);
  });
});

describe('origin of a follow-up case', () => {
  it('comes from CaseCreated or from the case a restore brings', () => {
    const origin = { caseId: 'CA-2026-100', kind: 'remake', reasonCode: 'broken', reason: 'Cracked' };
    expect(originFrom({ type: 'CaseCreated', data: { id: 'CA-2026-101', origin } })).toEqual({
      caseId: 'CA-2026-100',
      kind: 'remake',
      reasonCode: 'broken',
    });
    expect(originFrom({ type: 'CaseImported', data: { case: { origin } } })?.kind).toBe('remake');
    expect(originFrom({ type: 'CaseCreated', data: { id: 'CA-2026-101' } })).toBeNull();
    expect(originFrom({ type: 'CaseImported', data: { case: {} } })).toBeNull();
    expect(originFrom({ type: 'StageAdvanced', data: {} })).toBeUndefined();
  });
});

describe('CSV', () => {
  it('quotes what needs quoting', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Smith, John')).toBe('"Smith, John"');
    expect(csvCell('Say "hi"')).toBe('"Say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(-1.5)).toBe('-1.5');
  });

  it('keeps text a spreadsheet would run as a formula from being one', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
  });

  it('writes the header and CRLF-ended rows', () => {
    expect(toCsv(CASES_CSV_HEADER, [])).toBe(
      'id,patient,doctor,clinic,created,due,completed,onTime,turnaroundDays,remakes\r\n',
    );
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });
});
